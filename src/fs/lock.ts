// A lock file beside a file that several bankctl processes update (the config, the token cache):
// <file>.lock, created with O_EXCL, holding the owner's pid. A read-modify-write under it never
// loses another process's write. A lock whose owner has died (or that is older than STALE_MS) is
// taken over; one that stays held longer than the wait is an error naming the lock file.
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { fileError } from './errors.js';
import { randomHex } from './atomic.js';

export interface LockOptions {
  /** How long to wait for another process to let go, in ms (default 15 s). */
  waitMs?: number;
  /** What the file is, for error messages. */
  what?: string;
  /** A lock older than this is taken over even when its owner lives (default STALE_MS). */
  staleMs?: number;
  /**
   * Whether the pid in a held lock is still its owner (default: that process is alive). A lock
   * whose owner is not is taken over: a sandbox asks whether that pid is still a sandbox, since a
   * killed one's pid may since belong to another program, or to this very process (a container
   * restarted, its processes numbered as before).
   */
  ownerAlive?: (pid: number) => boolean;
}

/** The lock is held by another live process (or by one that wrote no pid): the wait ran out. */
export class LockHeldError extends UsageError {
  constructor(
    message: string,
    readonly lockFile: string,
    readonly pid: number | undefined,
    hint: string,
  ) {
    super(message, { hint });
  }
}

/** A held lock is never this old: its owner hung or the clock jumped. */
const STALE_MS = 30_000;

/**
 * The lock files this process holds now. A lock naming this process's pid that is not among them
 * was left by an earlier process that had the same pid (a container run again after a kill -9
 * numbers its processes as before): it is taken over, not waited for as if another process held it.
 */
const heldHere = new Set<string>();

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** Whether a process with this pid exists (one of another user's counts). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function owner(lockFile: string): { pid?: number; ageMs: number } | undefined {
  try {
    const st = statSync(lockFile);
    const pid = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
    return { pid: Number.isFinite(pid) && pid > 0 ? pid : undefined, ageMs: Date.now() - st.mtimeMs };
  } catch {
    return undefined;
  }
}

/** Removes a lock left by a dead process; moved aside first so that a fresh lock is never removed. */
function breakStale(lockFile: string, seen: { pid?: number }, isAlive: (pid: number) => boolean): void {
  const aside = `${lockFile}.${randomHex(6)}.stale`;
  try {
    renameSync(lockFile, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else broke it
    throw fileError(err, lockFile, 'write');
  }
  const moved = owner(aside);
  if (moved && moved.pid !== seen.pid && moved.pid !== undefined && isAlive(moved.pid)) {
    // it was a fresh lock taken in between: put it back if nobody took the name since
    try {
      renameSync(aside, lockFile);
      return;
    } catch {
      // fall through: remove it
    }
  }
  rmSync(aside, { force: true });
}

function acquire(lockFile: string, o: LockOptions): void {
  const deadline = Date.now() + (o.waitMs ?? 15_000);
  const isAlive = o.ownerAlive ?? processAlive;
  for (let attempt = 0; ; attempt++) {
    let fd: number | undefined;
    try {
      fd = openSync(lockFile, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      heldHere.add(lockFile);
      return;
    } catch (err) {
      if (fd !== undefined) {
        // created but not written (a full disk): not a lock anyone should wait for
        closeSync(fd);
        rmSync(lockFile, { force: true });
      }
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw fileError(err, lockFile, 'write');
    }
    const held = owner(lockFile);
    // an owner that died (or an earlier life of this pid), a lock far too old, or one whose owner
    // never wrote its pid
    if (
      held &&
      ((held.pid !== undefined && ((held.pid === process.pid && !heldHere.has(lockFile)) || !isAlive(held.pid))) ||
        held.ageMs > (o.staleMs ?? STALE_MS) ||
        (held.pid === undefined && held.ageMs > 2000))
    ) {
      breakStale(lockFile, held, isAlive);
      continue;
    }
    if (Date.now() > deadline) {
      throw new LockHeldError(
        `${o.what ?? 'the file'} is locked by ${held?.pid ? `process ${held.pid}` : 'another process'} (${lockFile})`,
        lockFile,
        held?.pid,
        'another bankctl is updating it; if none is running, remove the lock file',
      );
    }
    sleepSync(Math.min(50, 2 + attempt * 2 + Math.random() * 5));
  }
}

/**
 * Holds <file>.lock until the returned function is called: a file one process uses for a long time
 * (a push's checkpoint). A live process's lock is refused at once, however old; a dead one's is
 * taken over.
 */
export function holdLockSync(file: string, o: LockOptions = {}): () => void {
  const lockFile = `${file}.lock`;
  acquire(lockFile, { ...o, waitMs: 0, staleMs: Number.POSITIVE_INFINITY });
  return () => release(lockFile);
}

/** Runs fn while holding <file>.lock. */
export function withLockSync<T>(file: string, fn: () => T, o: LockOptions = {}): T {
  const lockFile = `${file}.lock`;
  acquire(lockFile, o);
  try {
    return fn();
  } finally {
    release(lockFile);
  }
}

function release(lockFile: string): void {
  heldHere.delete(lockFile);
  rmSync(lockFile, { force: true });
}
