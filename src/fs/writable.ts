// Whether a file can be created before the work that produces it begins: its directory exists, is a
// directory and is writable. The caller words the failure (a flag, or what the file is).
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** Throws the reason (an errno error) when a file at this absolute path could not be created. */
export function assertWritableDir(path: string): void {
  const dir = dirname(path);
  if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'not a directory' });
  accessSync(dir, constants.W_OK);
}
