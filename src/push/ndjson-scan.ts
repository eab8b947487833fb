// The fast path of `connector push` for ndjson: lines are read as bytes and a plain line (a flat
// object of ASCII strings without escapes, short decimal numbers and literals) is checked and cut
// up by offsets, with no string decoding, no JSON.parse and no objects per line. Anything else
// (escapes, non-ASCII text, nested payloads, exponents, long numbers, duplicate keys, ISO dates, any
// error) is declined, and the caller takes the general path (ndjson.ts) for that line, which gives
// the same answer and the same error messages. The fast path accepts only lines that the general
// path accepts, with the same account, balance, externalId and members.
import { MAX_ID_LENGTH, MAX_TEXT_LENGTH, TRANSACTION_TYPES } from '../contract/connector-wire.js';
import { sameBytes } from './by-bytes.js';
import {
  COLON,
  COMMA,
  DOT,
  isBlank,
  isDigit,
  LEFT_BRACE,
  LOWER_E,
  LOWER_F,
  LOWER_N,
  LOWER_T,
  MINUS,
  PRINTABLE_FIRST,
  DEL,
  QUOTE,
  BACKSLASH,
  RIGHT_BRACE,
  SPACE,
  UPPER_E,
  DIGIT_0,
} from './bytes.js';

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
/** Checked only by the general path (4 digits): a line holding it is declined. */
export const F_MCC = 12;

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
  ['merchantCategoryCode', F_MCC],
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
/** Members that may be null (as good as absent); null for any other known member is declined. */
const NULLABLE =
  (1 << F_OTHER) | (1 << F_BALANCE) | (1 << F_RESERVED) | (1 << F_PENDING) | (1 << F_PLATFORM_ID) | (1 << F_PAYLOAD);
const MAX_MEMBERS = 64;
/** Up to 15 significant digits a JSON number and its double are the same decimal. */
const MAX_DIGITS = 15;
/** 1 for the bytes a plain string holds as they are: printable ASCII but the quote and the backslash. */
const PLAIN = new Uint8Array(256);
for (let c = PRINTABLE_FIRST; c < DEL; c++) PLAIN[c] = c === QUOTE || c === BACKSLASH ? 0 : 1;
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

/** Returned by the value scanners for a line the fast path declines. */
const DECLINE = -1;

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
  for (let i = s; i < e; i++) if (b[i] !== SPACE) return false;
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
  amountStart = -1;
  amountEnd = -1;
  dateStart = -1;
  dateEnd = -1;
  pending = false;
  members = 0;
  readonly memberStart = new Int32Array(MAX_MEMBERS);
  readonly memberEnd = new Int32Array(MAX_MEMBERS);
  readonly memberKind = new Uint8Array(MAX_MEMBERS);
}

function skipBlanks(b: Uint8Array, i: number, e: number): number {
  while (i < e && isBlank(b[i]!)) i++;
  return i;
}

/** A plain string value of a member of kind at b[i] (the opening quote): its end, or DECLINE. */
function stringValue(b: Uint8Array, i: number, e: number, kind: number, out: LineScan): number {
  const cs = i + 1;
  i = cs;
  while (PLAIN[b[i]!] === 1) i++;
  if (i >= e || b[i] !== QUOTE) return DECLINE;
  const len = i - cs;
  switch (kind) {
    case F_ACCOUNT:
      if (len > MAX_ID_LENGTH || blankString(b, cs, i)) return DECLINE;
      out.accountStart = cs;
      out.accountEnd = i;
      break;
    case F_EXTERNAL_ID:
      if (len > MAX_ID_LENGTH || blankString(b, cs, i)) return DECLINE;
      out.externalIdStart = cs;
      out.externalIdEnd = i;
      break;
    case F_DESCRIPTION:
      if (len > MAX_TEXT_LENGTH || blankString(b, cs, i)) return DECLINE;
      break;
    case F_TYPE:
      if (!isType(b, cs, len)) return DECLINE;
      break;
    case F_PLATFORM_ID:
      if (len > MAX_ID_LENGTH) return DECLINE;
      break;
    case F_OTHER:
      break;
    default:
      return DECLINE;
  }
  return i + 1;
}

/** A short plain decimal at b[i] (a minus or a digit) of a member of kind: its end, or DECLINE. */
function numberValue(b: Uint8Array, i: number, e: number, kind: number, out: LineScan): number {
  const ns = i;
  if (b[i] === MINUS) i++;
  if (i >= e) return DECLINE;
  let digits = 0;
  if (b[i] === DIGIT_0) {
    i++;
    digits = 1;
  } else {
    while (i < e && isDigit(b[i]!)) {
      i++;
      digits++;
    }
    if (digits === 0) return DECLINE;
  }
  let fraction = false;
  if (i < e && b[i] === DOT) {
    const fs = ++i;
    while (i < e && isDigit(b[i]!)) i++;
    if (i === fs) return DECLINE;
    digits += i - fs;
    fraction = true;
  }
  if (i < e && (b[i] === LOWER_E || b[i] === UPPER_E || isDigit(b[i]!))) return DECLINE;
  if (digits > MAX_DIGITS && kind !== F_OTHER) return DECLINE;
  switch (kind) {
    case F_BALANCE:
      out.balanceStart = ns;
      out.balanceEnd = i;
      break;
    case F_RESERVED:
      out.reservedStart = ns;
      out.reservedEnd = i;
      break;
    case F_DATE:
      // under 12 digits is before 1973 in milliseconds: the general path says why (epoch seconds?)
      if (fraction || digits < 12) return DECLINE;
      out.dateStart = ns;
      out.dateEnd = i;
      break;
    case F_AMOUNT:
      out.amountStart = ns;
      out.amountEnd = i;
      break;
    case F_OTHER:
      break;
    default:
      return DECLINE;
  }
  return i;
}

/** true, false or null at b[i] as the value of a member of kind: its end, or DECLINE. */
function literalValue(b: Uint8Array, i: number, e: number, kind: number, out: LineScan): number {
  const c0 = b[i];
  const word = c0 === LOWER_T ? TRUE : c0 === LOWER_F ? FALSE : NULL;
  if (i + word.length > e || !sameBytes(b, i, word.length, word)) return DECLINE;
  // null is as good as absent for the optional members, and an error for the required ones
  if (word === NULL) return (NULLABLE & (1 << kind)) !== 0 ? i + word.length : DECLINE;
  if (kind === F_PENDING) out.pending = word === TRUE;
  return kind === F_OTHER || kind === F_PENDING ? i + word.length : DECLINE;
}

/** The value at b[i] of a member of kind: its end, or DECLINE. */
function memberValue(b: Uint8Array, i: number, e: number, kind: number, out: LineScan): number {
  const c0 = b[i]!;
  if (c0 === QUOTE) return stringValue(b, i, e, kind, out);
  if (c0 === MINUS || isDigit(c0)) return numberValue(b, i, e, kind, out);
  if (c0 === LOWER_T || c0 === LOWER_F || c0 === LOWER_N) return literalValue(b, i, e, kind, out);
  return DECLINE;
}

/**
 * Checks the line b[s, e) as a transaction of ndjson push input and records its offsets in out.
 * false: not a plain line; the general path decides (it may well be valid).
 */
export function scanLine(b: Uint8Array, s: number, e: number, out: LineScan): boolean {
  let i = skipBlanks(b, s, e);
  if (i >= e || b[i] !== LEFT_BRACE) return false;
  i++;
  out.accountStart = out.externalIdStart = out.balanceStart = out.reservedStart = -1;
  out.pending = false;
  out.members = 0;
  let seen = 0;
  let present = 0;
  for (;;) {
    i = skipBlanks(b, i, e);
    if (i >= e || b[i] !== QUOTE) return false;
    const keyStart = i++;
    while (PLAIN[b[i]!] === 1) i++;
    if (i >= e || b[i] !== QUOTE) return false;
    const kind = kindOf(b, keyStart + 1, i - keyStart - 1);
    i++;
    if (kind !== F_OTHER) {
      if (seen & (1 << kind)) return false;
      seen |= 1 << kind;
    }
    i = skipBlanks(b, i, e);
    if (i >= e || b[i] !== COLON) return false;
    i = skipBlanks(b, i + 1, e);
    if (i >= e) return false;
    const isNull = b[i] === LOWER_N;
    i = memberValue(b, i, e, kind, out);
    if (i === DECLINE) return false;
    if (!isNull) present |= 1 << kind;
    const n = out.members;
    if (n >= MAX_MEMBERS) return false;
    out.memberStart[n] = keyStart;
    out.memberEnd[n] = i;
    out.memberKind[n] = kind;
    out.members = n + 1;
    i = skipBlanks(b, i, e);
    if (i >= e) return false;
    if (b[i] === COMMA) {
      i++;
      continue;
    }
    if (b[i] !== RIGHT_BRACE) return false;
    i++;
    break;
  }
  return skipBlanks(b, i, e) === e && (present & REQUIRED) === REQUIRED;
}

/** True when b[s, e) holds nothing but spaces, tabs and CRs. */
function blankBytes(b: Uint8Array, s: number, e: number): boolean {
  return skipBlanks(b, s, e) === e;
}

/** A line scanLine declined, as text for the general path; undefined for a blank line (skipped). */
export function declinedText(b: Buffer, s: number, e: number): string | undefined {
  if (blankBytes(b, s, e)) return undefined;
  const text = b.toString('utf8', s, e);
  return text.trim() === '' ? undefined : text;
}
