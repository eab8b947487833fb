// Input text must be UTF-8 as written. Node's decoders turn a byte that is not (a Latin-1 "é", a
// cut multi-byte sequence) into U+FFFD without a word, and text sent on that way is changed for
// good (bank text pushed, a JSON body, an answer to the bank); so every reader of a user's input
// checks its bytes and names the first bad one by line and column.
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { withoutBom } from './bom.js';

const LF = 0x0a;

/** The input is not UTF-8: where, and which byte. */
export class NotUtf8Error extends Error {
  constructor(
    readonly line: number,
    readonly problem: string,
  ) {
    super(`line ${line}: ${problem}`);
  }
}

/** How many bytes the sequence led by c takes, or 0 when c cannot start one. */
function sequenceLength(c: number): number {
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return 2;
  if (c >= 0xe0 && c <= 0xef) return 3;
  if (c >= 0xf0 && c <= 0xf4) return 4;
  return 0;
}

/** The offset of the first byte of b[s, e) that is not part of well-formed UTF-8, or -1. */
export function firstBadByte(b: Uint8Array, s: number, e: number): number {
  let i = s;
  while (i < e) {
    const c = b[i]!;
    const n = sequenceLength(c);
    if (n === 0) return i;
    if (n === 1) {
      i++;
      continue;
    }
    if (i + n > e) return i;
    const c1 = b[i + 1]!;
    // the second byte's range excludes overlong forms, UTF-16 surrogates and code points past U+10FFFF
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    if (c1 < lo || c1 > hi) return i;
    for (let k = 2; k < n; k++) if ((b[i + k]! & 0xc0) !== 0x80) return i;
    i += n;
  }
  return -1;
}

/** What is wrong at b[bad], with its column in the line that starts at lineStart (in characters). */
export function badByteProblem(b: Buffer, lineStart: number, bad: number): string {
  const column = b.toString('utf8', lineStart, bad).length + 1;
  const hex = b[bad]!.toString(16).toUpperCase().padStart(2, '0');
  return `not valid UTF-8 (byte 0x${hex} at column ${column}): save the file as UTF-8`;
}

/** The first bad byte of b[s, e), or -1 when it is UTF-8 (one call into C++ for good bytes). */
function badOffset(b: Buffer, s: number, e: number): number {
  if (isUtf8(b.subarray(s, e))) return -1;
  const bad = firstBadByte(b, s, e);
  return bad < 0 ? s : bad;
}

/** The problem of the line b[s, e), or undefined when it is UTF-8. */
export function lineUtf8Problem(b: Buffer, s: number, e: number): string | undefined {
  const bad = badOffset(b, s, e);
  return bad < 0 ? undefined : badByteProblem(b, s, bad);
}

/** Where the byte at offset of b is: its 1-based line, and the problem naming its column. */
function locatedIn(b: Buffer, offset: number, fileStart = true): NotUtf8Error {
  let line = 1;
  let start = 0;
  for (let nl = b.indexOf(LF); nl >= 0 && nl < offset; nl = b.indexOf(LF, nl + 1)) {
    line++;
    start = nl + 1;
  }
  // a byte order mark opens the file, not the first line's text
  if (fileStart && line === 1 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) start = 3;
  return new NotUtf8Error(line, badByteProblem(b, start, offset));
}

/** A whole input's text: UTF-8 as written (else a NotUtf8Error), a leading byte order mark left out. */
export function decodeUtf8(b: Buffer): string {
  const bad = badOffset(b, 0, b.length);
  if (bad >= 0) throw locatedIn(b, bad);
  return withoutBom(b.toString('utf8'));
}

/** Where a complete sequence last ends in b: the bytes after it may be the start of one cut by a read. */
function completeEnd(b: Uint8Array): number {
  const end = b.length;
  for (let k = 1; k <= 3 && k <= end; k++) {
    const c = b[end - k]!;
    if ((c & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const n = sequenceLength(c);
    return n > k ? end - k : end;
  }
  return end;
}

/**
 * Checks a file's bytes read by read in order; the first bad one is a NotUtf8Error, its line found by
 * reading the file again up to it (only then: a good file costs one isUtf8 call per read).
 */
export class Utf8Reads {
  private carry: Buffer | undefined;
  private offset = 0;

  constructor(private readonly file: string) {}

  /** Throws a NotUtf8Error at the first bad byte of this read, or of one cut at its end. */
  async check(read: Buffer): Promise<void> {
    const b = this.carry ? Buffer.concat([this.carry, read]) : read;
    const base = this.offset - (this.carry?.length ?? 0);
    const end = completeEnd(b);
    this.offset += read.length;
    this.carry = end < b.length ? Buffer.from(b.subarray(end)) : undefined;
    const bad = badOffset(b, 0, end);
    if (bad >= 0) throw await located(this.file, base + bad);
  }

  /** At the end of the file: a sequence left unfinished is bad too. */
  async end(): Promise<void> {
    if (this.carry) throw await located(this.file, this.offset - this.carry.length);
  }
}

/** The NotUtf8Error for the byte at offset of file: the file read again up to it. */
async function located(file: string, offset: number): Promise<NotUtf8Error> {
  let before = 0; // the lines before the bad byte's
  let tail: Buffer[] = []; // the bad byte's line up to it
  for await (const b of createReadStream(file, { start: 0, end: offset }) as AsyncIterable<Buffer>) {
    const nl = b.lastIndexOf(LF);
    if (nl < 0) {
      tail.push(b);
      continue;
    }
    for (let i = b.indexOf(LF); i >= 0 && i <= nl; i = b.indexOf(LF, i + 1)) before++;
    tail = [b.subarray(nl + 1)];
  }
  const line = Buffer.concat(tail);
  return new NotUtf8Error(before + 1, locatedIn(line, line.length - 1, before === 0).problem);
}
