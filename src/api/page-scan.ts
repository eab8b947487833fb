// A /data/v2/transactions page read for the few fields `connector verify` folds (accountId, the
// amount's value, one providerTransactionId), straight from the body's bytes: no object per field of
// every transaction, which is most of a read-back's time and memory when JSON.parse makes them.
//
// It is an accelerator, never a second opinion: it checks the whole body as JSON (structure, strings
// with their escapes and control characters, numbers, literals, nothing after the value) and answers
// only when the body is plain enough that JSON.parse would give the same values: each needed field
// once, of the expected type. Anything else (a body that is not JSON, a duplicate or odd field, a
// number beyond 2^53, deep nesting) answers undefined, and the caller reads the page the exact way,
// which also says what is wrong with it.
//
// Its checking pieces (endOfString, memberName, named, skipValue) are also the NDJSON splitter's of
// `transactions list` (api/transactions.ts splitTransactionPageBytes): one JSON checker, not two.

export interface SlimTransaction {
  accountId: string;
  unscaledValue: string | number;
  scale: string | number;
  providerTransactionId?: string;
}

export interface SlimPage {
  transactions: SlimTransaction[];
  nextPageToken?: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
/** Deeper than this is not a transactions page: the exact reader takes it. */
const MAX_DEPTH = 64;
/** What the readers below answer for anything they do not take. */
const FAIL = -1;

// Byte classes, one table look-up a byte (past the end of the body b[i] is undefined, which no
// table holds, so every loop stops there).
/** The bytes a string's content passes over without a look (not a quote, backslash or control). */
const PLAIN = new Uint8Array(256);
for (let c = 0x20; c < 256; c++) PLAIN[c] = c === QUOTE || c === BACKSLASH ? 0 : 1;
/** JSON's whitespace. */
const WS = new Uint8Array(256);
for (const c of [0x20, 0x0a, 0x0d, 0x09]) WS[c] = 1;
/** The letters after a backslash that JSON allows, but for u (four hex digits follow). */
const ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') ESCAPE[c.charCodeAt(0)] = 1;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;
const DIGIT = new Uint8Array(256);
for (let c = ZERO; c <= NINE; c++) DIGIT[c] = 1;

const bytes = (s: string) => Uint8Array.from(Buffer.from(s, 'latin1'));
export const K_TRANSACTIONS = bytes('transactions');
export const K_NEXT = bytes('nextPageToken');
const K_ACCOUNT = bytes('accountId');
const K_AMOUNT = bytes('amount');
const K_VALUE = bytes('value');
const K_SCALE = bytes('scale');
const K_UNSCALED = bytes('unscaledValue');
const K_IDENTIFIERS = bytes('identifiers');
const K_PROVIDER_TX = bytes('providerTransactionId');
const L_TRUE = bytes('true');
const L_FALSE = bytes('false');
const L_NULL = bytes('null');

// The readers are functions of (body, index) that answer the index past what they read, or FAIL,
// and leave what else they found in the few variables below: no object per call, and the index
// stays in a register of the loops that call them. (A class keeping the index as a field, with a
// thrown marker for "declined", was about twice as slow: most of a page is its structure.)

/** Whether the last string endOfString passed over had escapes. */
let escaped = false;
/** The last member name's bytes, [nameStart, nameEnd) (quotes excluded). */
let nameStart = 0;
let nameEnd = 0;
/** After after(): whether it passed the closing byte (else a comma). */
let closed = false;
/** The value the last wanted string or amount part held. */
let found: string | number = '';
/** Containers open in skipValue: their opening byte. */
const open = new Uint8Array(MAX_DEPTH + 2);

/** At a quote: past the closing one, by JSON's rules (escapes, no raw control characters); else FAIL (< 0). */
export function endOfString(b: Buffer, i: number): number {
  let esc = false;
  i++;
  for (;;) {
    while (PLAIN[b[i]!] === 1) i++;
    const c = b[i];
    if (c === QUOTE) break;
    // a control character, or the end of the body
    if (c !== BACKSLASH) return FAIL;
    esc = true;
    const d = b[i + 1]!;
    if (ESCAPE[d] === 1) i += 2;
    else if (d === 0x75 && HEX[b[i + 2]!] === 1 && HEX[b[i + 3]!] === 1 && HEX[b[i + 4]!] === 1 && HEX[b[i + 5]!] === 1)
      i += 6;
    else return FAIL;
  }
  escaped = esc;
  return i + 1;
}

/** At a number: past it, by JSON's grammar. */
function endOfNumber(b: Buffer, i: number): number {
  if (b[i] === MINUS) i++;
  if (b[i] === ZERO) i++;
  else if (b[i]! >= 0x31 && b[i]! <= NINE) while (DIGIT[b[i]!] === 1) i++;
  else return FAIL;
  if (b[i] === DOT) {
    i++;
    if (DIGIT[b[i]!] !== 1) return FAIL;
    while (DIGIT[b[i]!] === 1) i++;
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++;
    if (b[i] === PLUS || b[i] === MINUS) i++;
    if (DIGIT[b[i]!] !== 1) return FAIL;
    while (DIGIT[b[i]!] === 1) i++;
  }
  return i;
}

/**
 * Before a member's name (whitespace first): past the name and its colon, the name in
 * [nameStart, nameEnd). An escaped name may spell a wanted one ("account\u0049d"): JSON.parse's
 * reading of it is the one, so it is declined.
 */
export function memberName(b: Buffer, i: number): number {
  while (WS[b[i]!] === 1) i++;
  if (b[i] !== QUOTE) return FAIL;
  const s = i + 1;
  i = endOfString(b, i);
  if (i < 0 || escaped) return FAIL;
  nameStart = s;
  nameEnd = i - 1;
  while (WS[b[i]!] === 1) i++;
  if (b[i] !== COLON) return FAIL;
  return i + 1;
}

/** Whether the last member name is exactly key. */
export function named(b: Buffer, key: Uint8Array): boolean {
  const s = nameStart;
  if (nameEnd - s !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (b[s + k] !== key[k]) return false;
  return true;
}

/** After a member or element (whitespace first): past a comma, or past `closing` (closed). */
function after(b: Buffer, i: number, closing: number): number {
  while (WS[b[i]!] === 1) i++;
  const c = b[i];
  closed = c === closing;
  return c === COMMA || closed ? i + 1 : FAIL;
}

/** Before a container (whitespace first): past `opening` and whitespace, or FAIL if it is not one. */
function opened(b: Buffer, i: number, opening: number): number {
  while (WS[b[i]!] === 1) i++;
  if (b[i] !== opening) return FAIL;
  i++;
  while (WS[b[i]!] === 1) i++;
  return i;
}

// A container's members or elements are read by one loop shape:
//   for (i = start(b, i, LBRACE); i >= 0 && !closed; i = next(b, i, RBRACE)) { ...one member... }
// start leaves an empty container passed over whole with `closed` set, and next passes the comma or
// the closing (setting `closed`), or carries a FAIL of the member out of the loop.

/** Before a container (whitespace first): past its opening, or past the whole of an empty one (closed). */
function start(b: Buffer, i: number, opening: number): number {
  i = opened(b, i, opening);
  // "}" and "]" are two past their openings
  closed = i >= 0 && b[i] === opening + 2;
  return closed ? i + 1 : i;
}

/** After a member or element: past the comma or the closing (see after), FAIL passed on. */
function next(b: Buffer, i: number, closing: number): number {
  return i < 0 ? FAIL : after(b, i, closing);
}

/** At true, false or null: past the word, or FAIL if the bytes spell none of them. */
function endOfLiteral(b: Buffer, i: number): number {
  const word = b[i] === 0x74 ? L_TRUE : b[i] === 0x66 ? L_FALSE : L_NULL;
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) return FAIL;
  return i + word.length;
}

/**
 * Before a member's name inside a value passed over (whitespace first): past the name and its colon.
 * Any name, escaped or not: nothing is read from a value passed over, so its names need no reading.
 */
function passedName(b: Buffer, i: number): number {
  while (WS[b[i]!] === 1) i++;
  if (b[i] !== QUOTE) return FAIL;
  i = endOfString(b, i);
  if (i < 0) return FAIL;
  while (WS[b[i]!] === 1) i++;
  return b[i] === COLON ? i + 1 : FAIL;
}

/** Any JSON value (whitespace first), checked and passed over (else FAIL, < 0); `depth` containers enclose it. */
export function skipValue(b: Buffer, i: number, depth: number): number {
  // Containers are walked here, not by recursion: open[1..d] holds the ones this value is inside.
  // Most of a page goes through this loop, so it opens and closes them inline rather than through
  // start() and after(): with those (and their writes of `closed`) a page took about 1.2x as long.
  let d = 0;
  for (;;) {
    while (WS[b[i]!] === 1) i++;
    let c = b[i];
    if (c === QUOTE) i = endOfString(b, i);
    else if (c === LBRACE || c === LBRACKET) {
      if (depth + d + 1 > MAX_DEPTH) return FAIL;
      i++;
      while (WS[b[i]!] === 1) i++;
      if (b[i] === c + 2)
        i++; // "{}" or "[]" ("}" and "]" are two past their openings)
      else {
        open[++d] = c;
        if (c === LBRACE) i = passedName(b, i);
        if (i < 0) return FAIL;
        continue;
      }
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) i = endOfLiteral(b, i);
    else i = endOfNumber(b, i);
    if (i < 0) return FAIL;
    // past a value: close the containers it ends, or go on to the next member or element
    for (;;) {
      if (d === 0) return i;
      while (WS[b[i]!] === 1) i++;
      c = b[i++];
      if (c === COMMA) {
        if (open[d] === LBRACE) i = passedName(b, i);
        if (i < 0) return FAIL;
        break;
      }
      if (c !== open[d]! + 2) return FAIL;
      d--;
    }
  }
}

/** A wanted string member's value (whitespace first) into `found`, as JSON.parse gives it. */
function wantedString(b: Buffer, i: number): number {
  while (WS[b[i]!] === 1) i++;
  if (b[i] !== QUOTE) return FAIL;
  const s = i + 1;
  i = endOfString(b, i);
  if (i < 0) return FAIL;
  found = escaped
    ? (JSON.parse(b.toString('utf8', s - 1, i)) as string)
    : (b as Buffer & { utf8Slice(s: number, e: number): string }).utf8Slice(s, i - 1);
  return i;
}

/** The amount's scale or unscaled value: a string, or a number JSON.parse reads exactly. */
function amountPart(b: Buffer, i: number): number {
  while (WS[b[i]!] === 1) i++;
  if (b[i] === QUOTE) return wantedString(b, i);
  const s = i;
  i = endOfNumber(b, i);
  if (i < 0) return FAIL;
  const v = Number(b.toString('latin1', s, i));
  // beyond 2^53 JSON.parse rounds; the exact reader keeps every digit
  if (!Number.isSafeInteger(v)) return FAIL;
  found = v;
  return i;
}

/** One transaction object (whitespace first), its wanted fields pushed onto out. */
function transaction(b: Buffer, i: number, out: SlimTransaction[]): number {
  let accountId: string | undefined;
  let unscaledValue: string | number | undefined;
  let scale: string | number | undefined;
  let providerTransactionId: string | undefined;
  let amount = false;
  let value = false;
  let identifiers = false;
  for (i = start(b, i, LBRACE); i >= 0 && !closed; i = next(b, i, RBRACE)) {
    i = memberName(b, i);
    if (i < 0) return FAIL;
    if (named(b, K_ACCOUNT)) {
      if (accountId !== undefined) return FAIL;
      i = wantedString(b, i);
      accountId = found as string;
    } else if (named(b, K_AMOUNT)) {
      if (amount) return FAIL;
      amount = true;
      for (i = start(b, i, LBRACE); i >= 0 && !closed; i = next(b, i, RBRACE)) {
        i = memberName(b, i);
        if (i < 0) return FAIL;
        if (!named(b, K_VALUE)) i = skipValue(b, i, 3);
        else {
          if (value) return FAIL;
          value = true;
          for (i = start(b, i, LBRACE); i >= 0 && !closed; i = next(b, i, RBRACE)) {
            i = memberName(b, i);
            if (i < 0) return FAIL;
            if (named(b, K_UNSCALED)) {
              if (unscaledValue !== undefined) return FAIL;
              i = amountPart(b, i);
              unscaledValue = found;
            } else if (named(b, K_SCALE)) {
              if (scale !== undefined) return FAIL;
              i = amountPart(b, i);
              scale = found;
            } else i = skipValue(b, i, 4);
          }
        }
      }
    } else if (named(b, K_IDENTIFIERS)) {
      if (identifiers) return FAIL;
      identifiers = true;
      while (WS[b[i]!] === 1) i++;
      if (b[i] !== LBRACE) i = skipValue(b, i, 2);
      else
        for (i = start(b, i, LBRACE); i >= 0 && !closed; i = next(b, i, RBRACE)) {
          i = memberName(b, i);
          if (i < 0) return FAIL;
          if (!named(b, K_PROVIDER_TX)) i = skipValue(b, i, 3);
          else {
            if (providerTransactionId !== undefined) return FAIL;
            i = wantedString(b, i);
            providerTransactionId = found as string;
          }
        }
    } else i = skipValue(b, i, 2);
  }
  if (i < 0 || accountId === undefined || unscaledValue === undefined || scale === undefined) return FAIL;
  out.push(
    providerTransactionId === undefined
      ? { accountId, unscaledValue, scale }
      : { accountId, unscaledValue, scale, providerTransactionId },
  );
  return i;
}

/** The page's wanted fields, or undefined when the body is for the exact reader (see above). */
export function scanTransactionsPage(body: Buffer): SlimPage | undefined {
  const b = body;
  // a byte order mark, as the text reader drops it
  let i = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  let transactions: SlimTransaction[] | undefined;
  let nextPageToken: string | undefined;
  let seenNext = false;
  for (i = start(b, i, LBRACE); i >= 0 && !closed; i = next(b, i, RBRACE)) {
    i = memberName(b, i);
    if (i < 0) return undefined;
    if (named(b, K_TRANSACTIONS)) {
      if (transactions) return undefined;
      const list: SlimTransaction[] = (transactions = []);
      for (i = start(b, i, LBRACKET); i >= 0 && !closed; i = next(b, i, RBRACKET)) i = transaction(b, i, list);
    } else if (named(b, K_NEXT)) {
      if (seenNext) return undefined;
      seenNext = true;
      while (WS[b[i]!] === 1) i++;
      if (b[i] === QUOTE) {
        i = wantedString(b, i);
        nextPageToken = found as string;
      } else i = b[i] === 0x6e ? endOfLiteral(b, i) : FAIL;
    } else i = skipValue(b, i, 1);
  }
  if (i < 0) return undefined;
  while (WS[b[i]!] === 1) i++;
  if (i !== b.length || !transactions) return undefined;
  return nextPageToken === undefined ? { transactions } : { transactions, nextPageToken };
}
