// The running sandbox publishes itself in <config dir>/sandbox.json (0600) so that `sandbox stop`
// finds it and the default profile can use its client without `auth login`.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxState } from '../../config/settings.js';

export function stateFile(configDir: string): string {
  return join(configDir, 'sandbox.json');
}

export function writeState(configDir: string, state: SandboxState): void {
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const file = stateFile(configDir);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

export function readState(configDir: string): SandboxState | undefined {
  try {
    return JSON.parse(readFileSync(stateFile(configDir), 'utf8')) as SandboxState;
  } catch {
    return undefined;
  }
}

export function removeState(configDir: string, pid?: number): void {
  const current = readState(configDir);
  if (pid !== undefined && current?.pid !== undefined && current.pid !== pid) return;
  rmSync(stateFile(configDir), { force: true });
}

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
