// Reading a file's lines as bytes, a megabyte at a time, with no decoding: the one reader of the
// ndjson passes (validation, sending, verify). A leading UTF-8 byte order mark is skipped.
import { open } from 'node:fs/promises';
import type { Hash } from 'node:crypto';
import { BOM, CR, LF } from './bytes.js';

/** Returned by a line callback to stop reading. */
export const STOP = Symbol('stop');

export type LineResult = void | typeof STOP | Promise<void | typeof STOP>;
export type LineFn = (buf: Buffer, start: number, end: number, line: number) => LineResult;

/** A bigger buffer holding the first len bytes of buf. */
function grown(buf: Buffer, len: number, size: number): Buffer {
  const bigger = Buffer.allocUnsafe(size);
  buf.copy(bigger, 0, 0, len);
  return bigger;
}

export interface LineRange {
  start?: number;
  end?: number;
  /** Fed every byte of the range as it is read (the content fingerprint). */
  hash?: Hash;
}

const startsWithBom = (b: Buffer, len: number) => len >= 3 && b[0] === BOM[0] && b[1] === BOM[1] && b[2] === BOM[2];

/** Calls fn for each complete line in buf[0, len); returns where the unfinished rest starts, or STOP. */
async function eachComplete(
  buf: Buffer,
  len: number,
  from: number,
  fn: LineFn,
  count: { line: number },
): Promise<number | typeof STOP> {
  let s = from;
  for (;;) {
    const nl = buf.indexOf(LF, s);
    if (nl < 0 || nl >= len) return s;
    count.line++;
    let r = fn(buf, s, nl > s && buf[nl - 1] === CR ? nl - 1 : nl, count.line);
    if (r !== undefined && r !== STOP) r = await r;
    if (r === STOP) return STOP;
    s = nl + 1;
  }
}

/**
 * Calls fn with every line of a file (or of the bytes [start, end) of it) as bytes (1-based
 * numbers, counted from start; a trailing CR left out). The bytes are only valid until fn returns
 * (or its promise settles). The byte at end is always a CR or LF, which stops scanLine's loops
 * without a bounds check.
 */
export async function eachLine(file: string, fn: LineFn, range: LineRange = {}): Promise<void> {
  const fh = await open(file, 'r');
  try {
    let buf: Buffer = Buffer.allocUnsafe(1 << 20);
    let len = 0;
    const count = { line: 0 };
    let position = range.start ?? 0;
    let first = position === 0;
    const stop = range.end ?? Infinity;
    for (;;) {
      if (len === buf.length) buf = grown(buf, len, buf.length * 2);
      const want = Math.min(buf.length - len, stop - position);
      if (want <= 0) break;
      const { bytesRead } = await fh.read(buf, len, want, position);
      if (bytesRead === 0) break;
      range.hash?.update(buf.subarray(len, len + bytesRead));
      position += bytesRead;
      len += bytesRead;
      const from = first && startsWithBom(buf, len) ? 3 : 0;
      if (first && len >= 3) first = false;
      const s = await eachComplete(buf, len, from, fn, count);
      if (s === STOP) return;
      if (s > 0) {
        buf.copy(buf, 0, s, len);
        len -= s;
      }
    }
    const from = first && startsWithBom(buf, len) ? 3 : 0;
    if (len > from) {
      if (len === buf.length) buf = grown(buf, len, len + 1);
      buf[len] = LF;
      const r = fn(buf, from, buf[len - 1] === CR ? len - 1 : len, count.line + 1);
      if (r !== undefined && r !== STOP) await r;
    }
  } finally {
    await fh.close();
  }
}
