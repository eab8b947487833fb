// The text of a file the user names (--input, --answers, --parameters, --fixtures, --file ...),
// read so that Ctrl-C (or a TERM) still ends the command while it waits, and decoded strictly
// (fs/utf8.ts): a Latin-1 export is an error naming its line, never text changed on the way.
//
// readFile() opens on libuv's thread pool. A named pipe with no writer yet blocks that open, and a
// process may not exit while a thread-pool thread is busy: Ctrl-C printed "interrupted" and the
// process stayed until kill -9 (readFileSync was worse: Ctrl-C was not even seen). So the file is
// opened with O_NONBLOCK, which never waits, and a pipe is then read as a socket, on the event loop:
// Linux reports a FIFO opened that way as readable only once a writer has come and written or gone,
// so a writer that comes later still gets its text read, and no writer yet is no empty input.
import { close, constants, fstat, open, readFile, type Stats } from 'node:fs';
import { Socket } from 'node:net';
import { promisify } from 'node:util';
import { UsageError } from '../errors.js';
import { errnoReason } from './errors.js';
import { decodeUtf8, NotUtf8Error } from './utf8.js';

const openAsync = promisify(open);
const fstatAsync = promisify(fstat);
const closeAsync = promisify(close);
const readFileAsync = promisify(readFile);

/** The file's bytes; an error with the errno code of what failed (the caller names the file). */
async function readInputBytes(path: string): Promise<Buffer> {
  // O_NONBLOCK does not exist on Windows, which has no FIFOs to wait on either
  const fd = await openAsync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  let stat: Stats;
  try {
    stat = await fstatAsync(fd);
  } catch (err) {
    await closeAsync(fd).catch(() => undefined);
    throw err;
  }
  // a regular file never blocks: read it whole through the descriptor (closed by us, not by readFile)
  if (stat.isFile()) {
    try {
      return await readFileAsync(fd);
    } finally {
      await closeAsync(fd).catch(() => undefined);
    }
  }
  if (stat.isFIFO()) return readStreamBytes(new Socket({ fd, readable: true, writable: false }));
  // a directory, a device: as before, by name (a directory is EISDIR, /dev/null is empty)
  await closeAsync(fd).catch(() => undefined);
  return readFileAsync(path);
}

/** A stream (stdin, or a pipe read as a socket, which owns and closes its fd) to its end. */
async function readStreamBytes(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks);
}

/**
 * The file's text: UTF-8 as written, else a NotUtf8Error naming the line and column of the first bad
 * byte (never a silent U+FFFD); a leading byte order mark left out. inputReadError words either error.
 */
export async function readInputFile(path: string): Promise<string> {
  return decodeUtf8(await readInputBytes(path));
}

/** The same for a stream (stdin for "-"): decoded once at its end, so no character is cut between reads. */
export async function readStreamText(stream: AsyncIterable<Buffer | string>): Promise<string> {
  return decodeUtf8(await readStreamBytes(stream));
}

/** The one-line error of an input that could not be read: the errno's reason, or FILE:LINE of a byte that is not UTF-8. */
export function inputReadError(err: unknown, name: string, flag?: string): UsageError {
  const at = flag ? `${flag}: ` : '';
  if (err instanceof NotUtf8Error) return new UsageError(`${at}${name}:${err.line}: ${err.problem}`);
  return new UsageError(`${at}cannot read ${name}: ${errnoReason(err)}`);
}
