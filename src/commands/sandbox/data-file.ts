// `sandbox start --data FILE`: the file is checked before anything starts.
import { statSync, type Stats } from 'node:fs';
import { UsageError } from '../../errors.js';
import { errnoReason } from '../../fs/errors.js';

function kind(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * A --data that exists must be a regular file: a directory cannot be read, and a FIFO (or a device)
 * would block the start for ever, before anything could say why. One that does not exist is made.
 */
export function checkDataFile(file: string): void {
  let st: Stats;
  try {
    st = statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new UsageError(`--data: cannot read ${file}: ${errnoReason(err)}`);
  }
  if (st.isDirectory()) throw new UsageError(`--data: ${file} is a directory; give a file name`);
  if (!st.isFile()) throw new UsageError(`--data: ${file} is ${kind(st)}, not a regular file; give a file name`);
}
