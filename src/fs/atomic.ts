// Every file bankctl writes goes through here: a temporary file beside the target, with a random
// name, created with O_CREAT|O_EXCL ('wx', so a symlink or any file planted at that name is never
// followed or reused), given its mode explicitly (0600 for user data, whatever the umask),
// written, flushed to disk, then renamed over the target. A reader sees the old file or the new
// one, never half of one; a failed write leaves the target as it was.
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  type PathLike,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileError } from './errors.js';
import { processAlive } from './pids.js';

export interface AtomicWriteOptions {
  /** File mode, applied whatever the umask; default 0600 (user data). */
  mode?: number;
  /** Create the parent directory (0700) when missing. */
  mkdir?: boolean;
  /** What the file is, for error messages ("the config file", "the report"). */
  what?: string;
}

/** n random bytes as hex (Web Crypto: node:crypto stays out of the start-up path). */
export function randomHex(n: number): string {
  const bytes = new Uint8Array(n);
  globalThis.crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('hex');
}

/**
 * The temporary name for a target: same directory (so rename is atomic), hidden, this process's
 * pid (so that a file left by a writer killed mid-write is known as its) and random.
 */
export function temporaryPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomHex(8)}.tmp`);
}

/** A temporary file of an earlier release (no pid in its name) this old was left by a killed writer. */
const UNNAMED_STALE_MS = 60 * 60_000;

/**
 * Removes the temporary files of target that writers killed mid-write left behind (a kill during
 * the fsync of the config leaves a copy of its secrets beside it): those of a pid that no longer
 * runs, and those of an earlier release (no pid) an hour old. Those of live processes are theirs.
 */
export function removeStaleTemporaries(target: string): void {
  const dir = dirname(target);
  const prefix = `.${basename(target)}.`;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(prefix) && n.endsWith('.tmp'));
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^(?:(\d+)\.)?[0-9a-f]{16}\.tmp$/.exec(name.slice(prefix.length));
    if (!m) continue;
    const path = join(dir, name);
    try {
      if (m[1] !== undefined) {
        const pid = Number(m[1]);
        if (pid === process.pid || processAlive(pid)) continue;
      } else {
        const st = statSync(path, { throwIfNoEntry: false });
        if (!st || Date.now() - st.mtimeMs < UNNAMED_STALE_MS) continue;
      }
      rmSync(path, { force: true });
    } catch {
      // not ours to remove (another user's, in a shared directory): the write itself succeeded
    }
  }
}

function prepare(target: string, o: AtomicWriteOptions): void {
  if (o.mkdir) mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
}

/**
 * A target that is not a regular file (a terminal, /dev/stdout, a pipe): there is nothing to
 * replace, so it is written in place. Renaming over it would replace the device node itself.
 */
function isSpecial(target: string): boolean {
  const st = statSync(target, { throwIfNoEntry: false });
  return !!st && !st.isFile() && !st.isDirectory();
}

/** Writes data to target atomically (see the top of this file). Throws a one-line UsageError. */
export function writeFileAtomicSync(target: string, data: string | Uint8Array, o: AtomicWriteOptions = {}): void {
  const mode = o.mode ?? 0o600;
  let tmp: string | undefined;
  let fd: number | undefined;
  try {
    if (isSpecial(target)) return writeFileSync(target, data);
    prepare(target, o);
    tmp = temporaryPath(target);
    fd = openSync(tmp, 'wx', mode);
    fchmodSync(fd, mode);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, target);
    tmp = undefined;
    removeStaleTemporaries(target);
  } catch (err) {
    if (fd !== undefined) closeQuietly(fd);
    if (tmp !== undefined) removeQuietly(tmp);
    throw fileError(err, target, 'write', o.what);
  }
}

/** The same, asynchronously, for data that arrives in pieces (a download, a report). */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array | AsyncIterable<string | Uint8Array>,
  o: AtomicWriteOptions = {},
): Promise<void> {
  const mode = o.mode ?? 0o600;
  let tmp: string | undefined;
  let handle: import('node:fs/promises').FileHandle | undefined;
  const { open, rename, rm } = await import('node:fs/promises');
  try {
    if (isSpecial(target)) {
      handle = await open(target, 'w');
      await writeAll(handle, data);
      await handle.close();
      return;
    }
    prepare(target, o);
    tmp = temporaryPath(target);
    handle = await open(tmp, 'wx', mode);
    await handle.chmod(mode);
    await writeAll(handle, data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(tmp, target);
    tmp = undefined;
    removeStaleTemporaries(target);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    if (tmp !== undefined) await rm(tmp, { force: true }).catch(() => undefined);
    throw fileError(err, target, 'write', o.what);
  }
}

async function writeAll(
  handle: import('node:fs/promises').FileHandle,
  data: string | Uint8Array | AsyncIterable<string | Uint8Array>,
): Promise<void> {
  if (typeof data === 'string' || data instanceof Uint8Array) await handle.writeFile(data);
  else for await (const chunk of data) await handle.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

function removeQuietly(path: PathLike): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // nothing to clean
  }
}
