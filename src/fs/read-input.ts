// The text of a file the user names (--input, --answers, --parameters, --fixtures, --file ...),
// read so that Ctrl-C (or a TERM) still ends the command while it waits.
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

const openAsync = promisify(open);
const fstatAsync = promisify(fstat);
const closeAsync = promisify(close);
const readFileAsync = promisify(readFile);

/** The file's text (UTF-8); an error with the errno code of what failed (the caller names the file). */
export async function readInputFile(path: string): Promise<string> {
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
      return await readFileAsync(fd, 'utf8');
    } finally {
      await closeAsync(fd).catch(() => undefined);
    }
  }
  if (stat.isFIFO()) return readPipe(fd);
  // a directory, a device: as before, by name (a directory is EISDIR, /dev/null is empty)
  await closeAsync(fd).catch(() => undefined);
  return readFileAsync(path, 'utf8');
}

/** A pipe (a named FIFO, `<(cmd)`, /dev/stdin on a pipe) to its end; the socket owns and closes fd. */
async function readPipe(fd: number): Promise<string> {
  const socket = new Socket({ fd, readable: true, writable: false });
  socket.setEncoding('utf8');
  let text = '';
  for await (const chunk of socket as AsyncIterable<string>) text += chunk;
  return text;
}
