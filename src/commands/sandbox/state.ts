// Where this installation's bin/bankctl.js is, for `sandbox start --detach`.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** bin/bankctl.js of this installation, found from the running module. */
export function binPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'bin', 'bankctl.js');
    if (existsSync(candidate) && existsSync(join(dir, 'package.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('cannot find bin/bankctl.js');
}
