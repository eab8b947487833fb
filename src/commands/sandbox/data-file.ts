// `sandbox start --data FILE`: the file is checked before anything starts, and held by one sandbox
// at a time (two on one file would overwrite each other's snapshots, the last writer winning).
import { statSync, type Stats } from 'node:fs';
import type { Context } from '../../context.js';
import { ConflictError, UsageError } from '../../errors.js';
import { errnoReason } from '../../fs/errors.js';
import { LockHeldError, holdLockSync } from '../../fs/lock.js';
import { isSandboxProcess } from '../../config/sandbox-state.js';

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

/** How large a --data file is now ("420 MB", "12 kB"), for the notes of a slow start or stop; undefined when it is not there. */
export function dataFileSize(file: string): string | undefined {
  let n: number;
  try {
    n = statSync(file).size;
  } catch {
    return undefined;
  }
  return n >= 1e6 ? `${Math.round(n / 1e6)} MB` : `${Math.ceil(n / 1e3)} kB`;
}

/**
 * Holds <file>.lock (the pid of this sandbox) until the returned function is called, or this process
 * ends: the command's cleanup (an error, Ctrl-C while it loads) and the process's exit release it.
 * A lock whose pid is no longer a `bankctl sandbox start` (killed with -9, its pid since reused) is
 * taken over; a live sandbox's is refused with exit 5 naming its pid, however long it has run.
 */
export function lockDataFile(ctx: Context, file: string): () => void {
  let unlock: () => void;
  try {
    unlock = holdLockSync(file, {
      what: `the --data file ${file}`,
      // this pid in the lock is a previous life's (a container restarted with the same numbering)
      ownerAlive: (pid) => pid !== process.pid && isSandboxProcess(pid),
    });
  } catch (err) {
    if (!(err instanceof LockHeldError)) throw err;
    const who = err.pid ? `pid ${err.pid}` : `another process (${err.lockFile})`;
    throw new ConflictError(`a sandbox is already using the --data file ${file}: ${who}`, {
      hint: 'stop it first: `bankctl sandbox stop` with the BANKCTL_CONFIG_DIR it was started with; or give another --data file',
    });
  }
  let held = true;
  const release = (): void => {
    if (!held) return;
    // once only: a lock released on stop may be another sandbox's by the time this process exits
    held = false;
    process.off('exit', release);
    unlock();
  };
  process.on('exit', release);
  ctx.onCleanup(release);
  return release;
}
