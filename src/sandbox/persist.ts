// Optional persistence of the sandbox (`sandbox start --data FILE`): the whole state as one
// snapshot, written atomically (temporary file, fsync, rename) so that a sandbox killed at any
// moment restarts from the last complete snapshot, never from a torn file.
//
// The snapshot is JSON lines (format 2): a header, one line per record or area, and a trailer
// counting them. It is written and read a line at a time, so no string ever holds the whole state:
// one JSON text stops at V8's longest string (about 512 MB, some 1.2 million transactions), which
// format 1 (one JSON document, still read) could not get past.
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, basename, join } from 'node:path';
import type { MemoryStore } from './store.js';

const FORMAT = 'bankctl-sandbox-state/2';
/** One JSON document: read, never written. */
const FORMAT_1 = 'bankctl-sandbox-state/1';
/** The store's maps, each record a line of its own. */
const MAPS = ['clients', 'users', 'tokens', 'codes', 'refreshTokens', 'accounts', 'transactions'] as const;
/** Lines are handed to the file in writes of about this many characters. */
const WRITE_CHARS = 1 << 20;
/** Bytes read from the file at a time. */
const READ_BYTES = 4 << 20;
const LF = 0x0a;

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Map) return { __map: [...value.entries()] };
  if (value instanceof Set) return { __set: [...value.values()] };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as { __map?: unknown[]; __set?: unknown[] };
    if (Array.isArray(v.__map)) return new Map(v.__map as Array<[unknown, unknown]>);
    if (Array.isArray(v.__set)) return new Set(v.__set);
  }
  return value;
}

/** Lines to a file descriptor, gathered into writes of about WRITE_CHARS. */
class LineWriter {
  private parts: string[] = [];
  private size = 0;

  constructor(private readonly fd: number) {}

  line(text: string): void {
    this.parts.push(text);
    this.size += text.length + 1;
    if (this.size >= WRITE_CHARS) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    this.parts.push('');
    writeSync(this.fd, this.parts.join('\n'));
    this.parts = [];
    this.size = 0;
  }
}

/** The store as JSON lines to fd: the header, each record and area, and the trailer with their count. */
export function writeSnapshot(fd: number, store: MemoryStore): void {
  const state = store.snapshot();
  const w = new LineWriter(fd);
  w.line(JSON.stringify({ format: FORMAT, seq: state.seq, idCounter: state.idCounter }));
  let n = 0;
  for (const name of MAPS)
    for (const [key, value] of state[name] as Map<string, unknown>) {
      w.line(JSON.stringify([name, key, value], replacer));
      n++;
    }
  for (const [name, area] of Object.entries(state.areas as Record<string, unknown>)) {
    w.line(JSON.stringify(['area', name, area], replacer));
    n++;
  }
  w.line(JSON.stringify({ end: n }));
  w.flush();
}

/**
 * Writes the snapshot to a temporary file beside file, fsyncs it and renames it over file. The
 * temporary name is random and created with O_EXCL (FILE's directory may be shared, as /tmp is: a
 * link or a file planted at a guessable name would receive the clients' secrets), 0600 whatever
 * the umask; it carries this pid, so that the next snapshot removes one a killed sandbox left.
 */
export function writeAtomic(file: string, write: (fd: number) => void): void {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${Buffer.from(bytes).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    fchmodSync(fd, 0o600);
    write(fd);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, file);
  removeDeadTemporaries(file);
}

/** The temporary files of file that a sandbox killed mid-snapshot left (named with its pid, now dead). */
function removeDeadTemporaries(file: string): void {
  const prefix = `.${basename(file)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    // this release's names, and the earlier one's (.FILE.<pid>.tmp)
    const m = /^(\d+)\.(?:[0-9a-f]{16}\.)?tmp$/.exec(name.slice(prefix.length));
    if (!m || Number(m[1]) === process.pid) continue;
    try {
      process.kill(Number(m[1]), 0);
      continue; // a live writer's (or another user's process)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') continue;
    }
    try {
      rmSync(join(dirname(file), name), { force: true });
    } catch {
      // another user's, in a shared directory: the snapshot itself is written
    }
  }
}

/**
 * The lines of a regular file, read a block at a time. Opened without blocking and checked before it
 * is read: a FIFO would block a synchronous read, and the whole process with it.
 */
function* fileLines(file: string): Generator<string> {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new Error(`${file} is a directory; give a file name`);
    if (!st.isFile()) throw new Error(`${file} is not a regular file; give a file name`);
    let rest: Buffer = Buffer.alloc(0);
    const block = Buffer.allocUnsafe(READ_BYTES);
    for (;;) {
      const n = readSync(fd, block, 0, READ_BYTES, null);
      if (n === 0) break;
      const b = rest.length > 0 ? Buffer.concat([rest, block.subarray(0, n)]) : block.subarray(0, n);
      let s = 0;
      for (let nl = b.indexOf(LF); nl >= 0; nl = b.indexOf(LF, s)) {
        yield b.toString('utf8', s, nl);
        s = nl + 1;
      }
      rest = Buffer.from(b.subarray(s));
    }
    if (rest.length > 0) yield rest.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Format 2's lines after the header, assembled into the state the store restores. */
function readLines(lines: Iterator<string>, header: { seq?: unknown; idCounter?: unknown }): Record<string, unknown> {
  const state: Record<string, unknown> = { seq: header.seq, idCounter: header.idCounter, areas: {} };
  const maps = new Map<string, Map<unknown, unknown>>(MAPS.map((m) => [m, new Map()]));
  for (const m of MAPS) state[m] = maps.get(m);
  let n = 0;
  for (let r = lines.next(); !r.done; r = lines.next()) {
    const v = JSON.parse(r.value, reviver) as unknown;
    if (!Array.isArray(v)) {
      const end = (v as { end?: unknown } | null)?.end;
      if (end !== n) throw new Error(`its trailer counts ${String(end)} lines, ${n} were read`);
      if (!lines.next().done) throw new Error('it goes on after its trailer');
      return state;
    }
    const [name, key, value] = v as [string, string, unknown];
    if (name === 'area') (state.areas as Record<string, unknown>)[key] = value;
    else if (maps.has(name)) maps.get(name)!.set(key, value);
    else throw new Error(`line ${n + 2} is of an unknown kind "${String(name).slice(0, 40)}"`);
    n++;
  }
  throw new Error('it ends before its trailer (a torn copy?)');
}

/** Loads a snapshot into the store; a file that is not a sandbox snapshot is an error, never overwritten. */
export function loadStore(store: MemoryStore, file: string): boolean {
  if (!existsSync(file)) return false;
  const lines = fileLines(file);
  let state: Record<string, unknown>;
  let format: unknown;
  try {
    const first = lines.next();
    // format 1 is one JSON document on one line
    const head = (first.done ? undefined : JSON.parse(first.value, reviver)) as
      { format?: unknown; state?: Record<string, unknown>; seq?: unknown; idCounter?: unknown } | undefined;
    format = head?.format;
    if (format === FORMAT_1 && head?.state && lines.next().done) state = head.state;
    else if (format === FORMAT) state = readLines(lines, head!);
    else throw new NotState();
  } catch (err) {
    if (err instanceof NotState)
      throw new Error(`${file} is not a sandbox state file (format ${String(format)})`, { cause: err });
    // a directory, a FIFO: said as they are
    if (/ is (a directory|not a regular file);/.test((err as Error).message)) throw err;
    throw new Error(`${file} is not a readable sandbox state file: ${(err as Error).message}`, { cause: err });
  } finally {
    lines.return(undefined);
  }
  store.restore(state);
  return true;
}

class NotState extends Error {}

/**
 * A snapshot blocks the sandbox while it is written: the wait before the next is at least this many
 * times the last one's length, so writing takes at most a fifth of the sandbox's time however large
 * the state grows (a million transactions take seconds to write; every 250 ms, pushes crawled).
 */
const WAIT_PER_WRITE = 4;

/**
 * Writes the store when it changed, at most every `intervalMs` (longer after a long write, see
 * WAIT_PER_WRITE), and once more on close.
 */
export class Persister {
  private dirty = false;
  private timer?: NodeJS.Timeout;
  writes = 0;
  /** How long the last snapshot took to write, in ms. */
  lastWriteMs = 0;
  /** Why the last snapshot could not be written; undefined once one is. */
  failure?: string;
  private closed = false;

  constructor(
    private readonly store: MemoryStore,
    private readonly file: string,
    private readonly intervalMs = 250,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  markDirty(): void {
    this.dirty = true;
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, this.delayMs());
      this.timer.unref?.();
    }
  }

  /** The wait before the next snapshot. */
  delayMs(): number {
    return Math.max(this.intervalMs, Math.ceil(WAIT_PER_WRITE * this.lastWriteMs));
  }

  flush(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const started = performance.now();
    try {
      writeAtomic(this.file, (fd) => writeSnapshot(fd, this.store));
      this.lastWriteMs = performance.now() - started;
      this.writes++;
      this.failure = undefined;
    } catch (err) {
      // tried again after a while (a disk that fills up may free space), and on close. Until a
      // snapshot is written the server refuses changes (507): nothing it answers 2xx is lost unsaid
      this.failure = (err as Error).message;
      this.log(`could not write ${this.file}: ${this.failure}; changes are refused until a snapshot is written`);
      if (!this.closed) this.markDirty();
      else this.dirty = true;
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
  }
}
