// A lock file beside a file that several bankctl processes update (the config, the token cache):
// <file>.lock, created with O_EXCL, holding the owner's pid and, where /proc tells it, the owner's
// start time. A read-modify-write under it never loses another process's write. A lock whose owner
// has died (or whose pid now belongs to a process started later) is taken over, by one process at a
// time (<file>.lock.break); one whose owner lives is never taken, however old: an owner stopped
// (Ctrl-Z) or hung would, once resumed, write over what the taker wrote. One that stays held longer
// than the wait is an error naming the lock file and its owner.
import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { UsageError } from '../errors.js';
import { fileError } from './errors.js';
import { randomHex } from './atomic.js';
import { pidGivenAway, processAlive, processStart } from './pids.js';

// whether a pid lives, and since when: the lock's questions, asked elsewhere too
export { processAlive, processStart };

export interface LockOptions {
  /** How long to wait for another process to let go, in ms (default 15 s). */
  waitMs?: number;
  /** What the file is, for error messages. */
  what?: string;
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

/** A lock or guard without a pid this old was left by a process that died between creating and writing it. */
const UNWRITTEN_STALE_MS = 2000;

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

let ownStart: string | undefined | null = null;
/** What this process writes in a lock it takes: its pid, and its start time where known. */
function ownContent(): string {
  if (ownStart === null) ownStart = processStart(process.pid);
  return `${process.pid}\n${ownStart ? `${ownStart}\n` : ''}`;
}

interface Held {
  pid?: number;
  /** The owner's start time, when the lock has it (written by a bankctl that knew its own). */
  start?: string;
  ageMs: number;
  text: string;
}

function owner(lockFile: string): Held | undefined {
  try {
    const st = statSync(lockFile);
    const text = readFileSync(lockFile, 'utf8');
    const [first, second] = text.split('\n');
    const pid = Number.parseInt(first ?? '', 10);
    return {
      pid: Number.isFinite(pid) && pid > 0 ? pid : undefined,
      start: second && /^\d+$/.test(second) ? second : undefined,
      ageMs: Date.now() - st.mtimeMs,
      text,
    };
  } catch {
    return undefined;
  }
}

/** Whether the lock's owner is gone: dead, its pid now another process's (another start time), or an earlier life of this pid. */
function ownerGone(lockFile: string, held: Held, isAlive: (pid: number) => boolean): boolean {
  if (held.pid === undefined) return false;
  if (held.pid === process.pid) return !heldHere.has(lockFile);
  return pidGivenAway(held.pid, held.start) || !isAlive(held.pid);
}

/**
 * Takes <lock>.break, the guard that one process at a time holds to remove a stale lock; false when
 * another holds it (look again later). A guard left by a breaker that died is removed first; a live
 * breaker's is kept, however old: one resumed after a hang removes the lock it judged stale.
 */
function takeGuard(guard: string): boolean {
  try {
    writeFileSync(guard, ownContent(), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw fileError(err, guard, 'write');
  }
  const held = owner(guard);
  if (held && (ownerGone(guard, held, processAlive) || unwritten(held))) {
    // moved aside, then removed only if it is the guard seen as stale; a fresh one goes back
    const aside = `${guard}.${randomHex(6)}.stale`;
    try {
      renameSync(guard, aside);
    } catch {
      return false;
    }
    const moved = owner(aside);
    if (moved && moved.text !== held.text) {
      try {
        linkSync(aside, guard);
      } catch {
        // another guard took the name: its holder breaks the lock
      }
    }
    rmSync(aside, { force: true });
  }
  return false;
}

/**
 * Removes a stale lock. Only the holder of <lock>.break may, and it looks at the lock again under
 * it: of several processes that found the same stale lock, one removes it, and none removes the
 * fresh lock another took in between (it would then be held twice).
 */
function breakStale(lockFile: string, isStale: (held: Held) => boolean): boolean {
  const guard = `${lockFile}.break`;
  if (!takeGuard(guard)) return false;
  try {
    const held = owner(lockFile);
    if (held && isStale(held)) rmSync(lockFile, { force: true });
    return true;
  } catch (err) {
    throw fileError(err, lockFile, 'write');
  } finally {
    removeIfMine(guard);
  }
}

/** Removes a lock or guard this process wrote; one taken over since (this process hung) is left to its new owner. */
function removeIfMine(file: string): void {
  const held = owner(file);
  if (held && held.text === ownContent()) rmSync(file, { force: true });
}

/** A lock or guard whose creator died before writing its pid into it. */
function unwritten(held: Held): boolean {
  return held.pid === undefined && held.ageMs > UNWRITTEN_STALE_MS;
}

function acquire(lockFile: string, o: LockOptions): void {
  const deadline = Date.now() + (o.waitMs ?? 15_000);
  // a takeover by another process lasts milliseconds: waited for even by a caller that waits for no owner
  const breakDeadline = Math.max(deadline, Date.now() + 1000);
  const isAlive = o.ownerAlive ?? processAlive;
  // an owner that is gone, or one that never wrote its pid; never a live owner's, however old
  const isStale = (held: Held): boolean => ownerGone(lockFile, held, isAlive) || unwritten(held);
  for (let attempt = 0; ; attempt++) {
    let fd: number | undefined;
    try {
      fd = openSync(lockFile, 'wx', 0o600);
      writeSync(fd, ownContent());
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
    if (held && isStale(held)) {
      if (breakStale(lockFile, isStale)) continue;
      // another process is breaking it: a moment for it to finish (a hung one: until the deadline)
      if (Date.now() <= breakDeadline) {
        sleepSync(1 + Math.random() * 4);
        continue;
      }
      const breaker = owner(`${lockFile}.break`)?.pid;
      throw new LockHeldError(
        `${o.what ?? 'the file'} is being taken over from a process that ended by ${breaker ? `process ${breaker}` : 'another process'} (${lockFile}.break)`,
        `${lockFile}.break`,
        breaker,
        'another bankctl is taking over the lock; if none is running, remove the .break file',
      );
    }
    if (Date.now() > deadline) {
      throw new LockHeldError(
        `${o.what ?? 'the file'} is locked by ${held?.pid ? `process ${held.pid}` : 'another process'} (${lockFile})`,
        lockFile,
        held?.pid,
        held?.pid
          ? `another bankctl is updating it (a stopped one, Ctrl-Z, holds it until resumed); if process ${held.pid} is no bankctl, remove the lock file`
          : 'another bankctl is updating it; if none is running, remove the lock file',
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
  acquire(lockFile, { ...o, waitMs: 0 });
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
  removeIfMine(lockFile);
}
