// The fast path of `connector push` for ndjson: lines are read as bytes and a plain line (a flat
// object of ASCII strings without escapes, short decimal numbers and literals) is checked and cut
// up by offsets, with no string decoding, no JSON.parse and no objects per line. Anything else
// (escapes, non-ASCII text, nested payloads, exponents, long numbers, duplicate keys, any error)
// is declined, and the caller takes the general path (push-input.ts) for that line, which gives
// the same answer and the same error messages. The fast path accepts only lines that the general
// path accepts, with the same account, balance, externalId and members.
import { open } from 'node:fs/promises';
import { MAX_ID_LENGTH, MAX_TEXT_LENGTH, TRANSACTION_TYPES } from '../contract/connector-wire.js';

export const F_OTHER = 0;
export const F_ACCOUNT = 1;
export const F_BALANCE = 2;
export const F_RESERVED = 3;
export const F_EXTERNAL_ID = 4;
export const F_AMOUNT = 5;
export const F_DATE = 6;
export const F_DESCRIPTION = 7;
export const F_TYPE = 8;
export const F_PENDING = 9;
export const F_PLATFORM_ID = 10;
export const F_PAYLOAD = 11;

const KEYS: Array<[string, number]> = [
  ['account', F_ACCOUNT],
  ['balance', F_BALANCE],
  ['reservedAmount', F_RESERVED],
  ['externalId', F_EXTERNAL_ID],
  ['amount', F_AMOUNT],
  ['date', F_DATE],
  ['description', F_DESCRIPTION],
  ['type', F_TYPE],
  ['pending', F_PENDING],
  ['platformId', F_PLATFORM_ID],
  ['payload', F_PAYLOAD],
];
// keys by length: parallel arrays, searched without allocating
const KEY_BYTES: Uint8Array[][] = [];
const KEY_KINDS: number[][] = [];
for (const [k, kind] of KEYS) {
  (KEY_BYTES[k.length] ??= []).push(Buffer.from(k, 'latin1'));
  (KEY_KINDS[k.length] ??= []).push(kind);
}

const TYPES = TRANSACTION_TYPES.map((t) => Buffer.from(t, 'latin1'));
const REQUIRED =
  (1 << F_ACCOUNT) | (1 << F_EXTERNAL_ID) | (1 << F_AMOUNT) | (1 << F_DATE) | (1 << F_DESCRIPTION) | (1 << F_TYPE);
/** The members of the account, not of the transaction: left out of the wire JSON. */
export const ACCOUNT_KINDS = (1 << F_ACCOUNT) | (1 << F_BALANCE) | (1 << F_RESERVED);
const MAX_MEMBERS = 64;
/** Up to 15 significant digits a JSON number and its double are the same decimal. */
const MAX_DIGITS = 15;
/** 1 for the bytes a plain string holds as they are: printable ASCII but the quote and the backslash. */
const PLAIN = new Uint8Array(256);
for (let c = 32; c < 127; c++) PLAIN[c] = c === 34 || c === 92 ? 0 : 1;

function sameBytes(b: Uint8Array, s: number, len: number, k: Uint8Array): boolean {
  for (let i = 0; i < len; i++) if (b[s + i] !== k[i]) return false;
  return true;
}

function kindOf(b: Uint8Array, s: number, len: number): number {
  const keys = KEY_BYTES[len];
  if (keys === undefined) return F_OTHER;
  for (let k = 0; k < keys.length; k++) if (sameBytes(b, s, len, keys[k]!)) return KEY_KINDS[len]![k]!;
  return F_OTHER;
}

function isType(b: Uint8Array, s: number, len: number): boolean {
  for (let k = 0; k < TYPES.length; k++) if (TYPES[k]!.length === len && sameBytes(b, s, len, TYPES[k]!)) return true;
  return false;
}

function blankString(b: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (b[i] !== 32) return false;
  return true;
}

/** What scanLine found: offsets into the buffer it was given (-1 when absent or null). */
export class LineScan {
  accountStart = -1;
  accountEnd = -1;
  externalIdStart = -1;
  externalIdEnd = -1;
  balanceStart = -1;
  balanceEnd = -1;
  reservedStart = -1;
  reservedEnd = -1;
  members = 0;
  readonly memberStart = new Int32Array(MAX_MEMBERS);
  readonly memberEnd = new Int32Array(MAX_MEMBERS);
  readonly memberKind = new Uint8Array(MAX_MEMBERS);
}

const isWs = (c: number) => c === 32 || c === 9 || c === 13;

/**
 * Checks the line b[s, e) as a transaction of ndjson push input and records its offsets in out.
 * false: not a plain line; the general path decides (it may well be valid).
 */
export function scanLine(b: Uint8Array, s: number, e: number, out: LineScan): boolean {
  let i = s;
  while (i < e && isWs(b[i]!)) i++;
  if (i >= e || b[i] !== 123) return false;
  i++;
  out.accountStart = out.externalIdStart = out.balanceStart = out.reservedStart = -1;
  out.members = 0;
  let seen = 0;
  let present = 0;
  for (;;) {
    while (i < e && isWs(b[i]!)) i++;
    if (i >= e || b[i] !== 34) return false;
    const keyStart = i;
    i++;
    while (PLAIN[b[i]!] === 1) i++;
    if (i >= e || b[i] !== 34) return false;
    const kind = kindOf(b, keyStart + 1, i - keyStart - 1);
    i++;
    if (kind !== F_OTHER) {
      if (seen & (1 << kind)) return false;
      seen |= 1 << kind;
    }
    while (i < e && isWs(b[i]!)) i++;
    if (i >= e || b[i] !== 58) return false;
    i++;
    while (i < e && isWs(b[i]!)) i++;
    if (i >= e) return false;
    const c0 = b[i]!;
    if (c0 === 34) {
      const cs = i + 1;
      i = cs;
      while (PLAIN[b[i]!] === 1) i++;
      if (i >= e || b[i] !== 34) return false;
      const len = i - cs;
      i++;
      switch (kind) {
        case F_ACCOUNT:
          if (len > MAX_ID_LENGTH || blankString(b, cs, cs + len)) return false;
          out.accountStart = cs;
          out.accountEnd = cs + len;
          break;
        case F_EXTERNAL_ID:
          if (len > MAX_ID_LENGTH || blankString(b, cs, cs + len)) return false;
          out.externalIdStart = cs;
          out.externalIdEnd = cs + len;
          break;
        case F_DESCRIPTION:
          if (len > MAX_TEXT_LENGTH || blankString(b, cs, cs + len)) return false;
          break;
        case F_TYPE:
          if (!isType(b, cs, len)) return false;
          break;
        case F_PLATFORM_ID:
          if (len > MAX_ID_LENGTH) return false;
          break;
        case F_OTHER:
          break;
        default:
          return false;
      }
      present |= 1 << kind;
    } else if (c0 === 45 || (c0 >= 48 && c0 <= 57)) {
      const ns = i;
      if (c0 === 45) i++;
      if (i >= e) return false;
      let digits = 0;
      if (b[i] === 48) {
        i++;
        digits = 1;
      } else {
        while (i < e && b[i]! >= 48 && b[i]! <= 57) {
          i++;
          digits++;
        }
        if (digits === 0) return false;
      }
      let fraction = false;
      if (i < e && b[i] === 46) {
        i++;
        const fs = i;
        while (i < e && b[i]! >= 48 && b[i]! <= 57) i++;
        if (i === fs) return false;
        digits += i - fs;
        fraction = true;
      }
      if (i < e && (b[i] === 101 || b[i] === 69 || (b[i]! >= 48 && b[i]! <= 57))) return false;
      switch (kind) {
        case F_BALANCE:
          if (digits > MAX_DIGITS) return false;
          out.balanceStart = ns;
          out.balanceEnd = i;
          break;
        case F_RESERVED:
          if (digits > MAX_DIGITS) return false;
          out.reservedStart = ns;
          out.reservedEnd = i;
          break;
        case F_AMOUNT:
          if (digits > MAX_DIGITS) return false;
          break;
        case F_DATE:
          if (fraction || digits > MAX_DIGITS) return false;
          break;
        case F_OTHER:
          break;
        default:
          return false;
      }
      present |= 1 << kind;
    } else if (c0 === 116 || c0 === 102 || c0 === 110) {
      const word = c0 === 116 ? 'true' : c0 === 102 ? 'false' : 'null';
      if (i + word.length > e) return false;
      for (let k = 1; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return false;
      i += word.length;
      if (c0 === 110) {
        // null is as good as absent for the optional members, and an error for the required ones
        if (
          kind !== F_OTHER &&
          kind !== F_BALANCE &&
          kind !== F_RESERVED &&
          kind !== F_PENDING &&
          kind !== F_PLATFORM_ID &&
          kind !== F_PAYLOAD
        )
          return false;
      } else if (kind !== F_OTHER && kind !== F_PENDING) return false;
      else present |= 1 << kind;
    } else return false;
    const n = out.members;
    if (n >= MAX_MEMBERS) return false;
    out.memberStart[n] = keyStart;
    out.memberEnd[n] = i;
    out.memberKind[n] = kind;
    out.members = n + 1;
    while (i < e && isWs(b[i]!)) i++;
    if (i >= e) return false;
    if (b[i] === 44) {
      i++;
      continue;
    }
    if (b[i] !== 125) return false;
    i++;
    break;
  }
  while (i < e && isWs(b[i]!)) i++;
  return i === e && (present & REQUIRED) === REQUIRED;
}

/** True when b[s, e) holds nothing but spaces, tabs and CRs. */
function blankBytes(b: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (!isWs(b[i]!)) return false;
  return true;
}

/** A line scanLine declined, as text for the general path; undefined for a blank line (skipped). */
export function declinedText(b: Buffer, s: number, e: number): string | undefined {
  if (blankBytes(b, s, e)) return undefined;
  const text = b.toString('utf8', s, e);
  return text.trim() === '' ? undefined : text;
}

/** A bigger buffer holding the first len bytes of buf. */
function grown(buf: Buffer, len: number, size: number): Buffer {
  const bigger = Buffer.allocUnsafe(size);
  buf.copy(bigger, 0, 0, len);
  return bigger;
}

/** Returned by a line callback to stop reading. */
export const STOP = Symbol('stop');

type LineResult = void | typeof STOP | Promise<void | typeof STOP>;

/**
 * Calls fn with every line of a file (or of the bytes [start, end) of it) as bytes (1-based
 * numbers, counted from start; a trailing CR left out), reading a megabyte at a time. The bytes are
 * only valid until fn returns (or its promise settles). The byte at end is always a CR or LF, which
 * stops scanLine's loops without a bounds check.
 */
export async function eachLine(
  file: string,
  fn: (buf: Buffer, start: number, end: number, line: number) => LineResult,
  range: { start?: number; end?: number } = {},
): Promise<void> {
  const fh = await open(file, 'r');
  try {
    let buf: Buffer = Buffer.allocUnsafe(1 << 20);
    let len = 0;
    let line = 0;
    let position = range.start ?? 0;
    const stop = range.end ?? Infinity;
    for (;;) {
      if (len === buf.length) buf = grown(buf, len, buf.length * 2);
      const want = Math.min(buf.length - len, stop - position);
      if (want <= 0) break;
      const { bytesRead } = await fh.read(buf, len, want, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      len += bytesRead;
      let s = 0;
      for (;;) {
        const nl = buf.indexOf(10, s);
        if (nl < 0 || nl >= len) break;
        line++;
        let r = fn(buf, s, nl > s && buf[nl - 1] === 13 ? nl - 1 : nl, line);
        if (r !== undefined && r !== STOP) r = await r;
        if (r === STOP) return;
        s = nl + 1;
      }
      if (s > 0) {
        buf.copy(buf, 0, s, len);
        len -= s;
      }
    }
    if (len > 0) {
      line++;
      if (len === buf.length) buf = grown(buf, len, len + 1);
      buf[len] = 10;
      const r = fn(buf, 0, buf[len - 1] === 13 ? len - 1 : len, line);
      if (r !== undefined && r !== STOP) await r;
    }
  } finally {
    await fh.close();
  }
}

/** The text of b[s, e) where scanLine found only ASCII. */
export function latin1(b: Buffer, s: number, e: number): string {
  return b.toString('latin1', s, e);
}

/** Records keyed by a string, found also from its UTF-8 bytes in a buffer without making a string of them. */
export class ByBytes<T> {
  readonly byKey = new Map<string, T>();
  readonly list: T[] = [];
  private readonly byHash = new Map<number, Array<{ bytes: Buffer; value: T }>>();

  add(key: string, value: T): void {
    this.byKey.set(key, value);
    this.list.push(value);
    const bytes = Buffer.from(key);
    const h = hashBytes(bytes, 0, bytes.length);
    let bucket = this.byHash.get(h);
    if (!bucket) this.byHash.set(h, (bucket = []));
    bucket.push({ bytes, value });
  }

  /** The record whose key is the bytes b[s, e). */
  find(b: Uint8Array, s: number, e: number): T | undefined {
    const bucket = this.byHash.get(hashBytes(b, s, e));
    if (bucket)
      for (const { bytes, value } of bucket)
        if (bytes.length === e - s && sameBytes(b, s, bytes.length, bytes)) return value;
    return undefined;
  }
}

function hashBytes(b: Uint8Array, s: number, e: number): number {
  let h = 0x811c9dc5;
  for (let i = s; i < e; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h;
}

/** Whether b[s, e) holds text (ASCII) exactly. */
export function sameText(b: Uint8Array, s: number, e: number, text: string | undefined): boolean {
  if (text === undefined || text.length !== e - s) return false;
  for (let i = 0; i < text.length; i++) if (b[s + i] !== text.charCodeAt(i)) return false;
  return true;
}
