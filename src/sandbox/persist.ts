// Optional persistence of the sandbox (`sandbox start --data FILE`): the whole state as one JSON
// snapshot, written atomically (temporary file, fsync, rename) so that a sandbox killed at any
// moment restarts from the last complete snapshot, never from a torn file.
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { dirname, basename, join } from 'node:path';
import type { MemoryStore } from './store.js';

const FORMAT = 'bankctl-sandbox-state/1';

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

export function serializeStore(store: MemoryStore): string {
  return JSON.stringify({ format: FORMAT, state: store.snapshot() }, replacer);
}

export function writeAtomic(file: string, data: string): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/**
 * The text of a regular file. Opened without blocking and checked before it is read: a FIFO would
 * block a synchronous read, and the whole process with it, until something wrote to it.
 */
function readRegularFile(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new Error(`${file} is a directory; give a file name`);
    if (!st.isFile()) throw new Error(`${file} is not a regular file; give a file name`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Loads a snapshot into the store; a file that is not a sandbox snapshot is an error, never overwritten. */
export function loadStore(store: MemoryStore, file: string): boolean {
  if (!existsSync(file)) return false;
  const text = readRegularFile(file);
  let parsed: { format?: string; state?: Record<string, unknown> };
  try {
    parsed = JSON.parse(text, reviver);
  } catch (err) {
    throw new Error(`${file} is not a readable sandbox state file: ${(err as Error).message}`, { cause: err });
  }
  if (parsed?.format !== FORMAT || !parsed.state)
    throw new Error(`${file} is not a sandbox state file (format ${String(parsed?.format)})`);
  store.restore(parsed.state);
  return true;
}

/** Writes the store when it changed, at most every `intervalMs`, and once more on close. */
export class Persister {
  private dirty = false;
  private timer?: NodeJS.Timeout;
  writes = 0;
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
      }, this.intervalMs);
      this.timer.unref?.();
    }
  }

  flush(): void {
    if (!this.dirty) return;
    this.dirty = false;
    try {
      writeAtomic(this.file, serializeStore(this.store));
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
