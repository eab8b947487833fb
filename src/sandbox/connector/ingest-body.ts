// The fast path of the transaction ingest body (POST /connector/users/{id}/transactions): one pass
// over the bytes of a CreateTransactionAccountContainer that builds the validated container
// directly, without the number-wrapping parse (parseExactJson) and the generic tree it makes.
//
// It answers only when it is sure: for a body it returns a container, that container is exactly
// what validateContainer(parseExactJson(text), 'create') returns for it. Anything else (malformed
// JSON, a value that fails validation, a repeated known key, an escaped key, a BOM, very deep
// nesting...) returns undefined, and the caller takes the general path, which gives today's
// statuses and messages. Amounts are the numbers' source text; no number goes through a double
// except the date, whose digits are read exactly.
import { isUtf8 } from 'node:buffer';
import {
  ExactNumber,
  INGEST_TYPES,
  MAX_ID_LENGTH,
  MAX_TEXT_LENGTH,
  MAX_TRANSACTIONS_PER_REQUEST,
  TRANSACTION_TYPES,
  transactionPayloadProblem,
  type Obj,
  type TransactionAccountEntity,
  type TransactionContainer,
  type TransactionEntity,
} from '../../contract/connector-wire.js';
import { numberTextToDecimal } from '../../contract/decimal.js';

/** Thrown inside the reader when the body leaves the fast path; never escapes parseIngestBody. */
const BAIL: unknown = Object.freeze({ bail: true });

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/** Nesting allowed inside payloads and ignored values; deeper goes the general way. */
const MAX_DEPTH = 256;
/** Strings shorter than this are made by String.fromCharCode (no call into the runtime). */
const SHORT = 13;

// string token flags
const ESCAPED = 1;
const NON_ASCII = 2;

// number token kinds
const FRACTION = 1;
const EXPONENT = 2;

type TransactionType = (typeof TRANSACTION_TYPES)[number];
type IngestType = (typeof INGEST_TYPES)[number];

class Reader {
  i = 0;
  /** The last string token: its contents between the quotes, and its flags. */
  private ts = 0;
  private te = 0;
  private tf = 0;
  /** The last number token and its kind. */
  private ns = 0;
  private ne = 0;
  private nk = 0;
  /** Transactions over all accounts so far. */
  count = 0;
  /** Where each transaction's object starts, in order over all accounts (transactionAt reads one again). */
  readonly starts: number[] = [];

  constructor(private readonly b: Buffer) {}

  /** Skips JSON whitespace; the byte there (NaN at the end). */
  private ws(): number {
    const b = this.b;
    let i = this.i;
    let c = b[i]!;
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i]!;
    this.i = i;
    return c;
  }

  private expect(c: number): void {
    if (this.ws() !== c) throw BAIL;
    this.i++;
  }

  /** After a member or an element: true for a comma, false for the closing byte, else off the path. */
  private more(close: number): boolean {
    const c = this.ws();
    this.i++;
    if (c === COMMA) return true;
    if (c === close) return false;
    throw BAIL;
  }

  /** Scans a string token at i (a quote), leaving its bounds in ts/te and flags in tf. */
  private token(): void {
    const b = this.b;
    const n = b.length;
    const start = this.i + 1;
    let j = start;
    let flags = 0;
    for (;;) {
      if (j >= n) throw BAIL;
      const c = b[j]!;
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        flags |= ESCAPED;
        j += 2;
        continue;
      }
      if (c < 0x20) throw BAIL;
      if (c >= 0x80) flags |= NON_ASCII;
      j++;
    }
    this.ts = start;
    this.te = j;
    this.tf = flags;
    this.i = j + 1;
  }

  /** Text of bytes [a, e) that are all ASCII, as a string of its own (never a slice of the body). */
  private ascii(a: number, e: number): string {
    return e - a < SHORT ? short(this.b, a, e) : this.b.toString('latin1', a, e);
  }

  /** The value of the last string token. */
  private tokenValue(): string {
    const { ts, te, tf } = this;
    if (tf === 0) return this.ascii(ts, te);
    if ((tf & ESCAPED) === 0) return this.b.toString('utf8', ts, te);
    const raw = this.b.toString('utf8', ts - 1, te + 1);
    // parseExactJson refuses this escape anywhere in the body
    if (raw.includes('\\u0000')) throw BAIL;
    try {
      return JSON.parse(raw) as string;
    } catch {
      throw BAIL;
    }
  }

  /** A string value at i (after whitespace); off the path for any other value. */
  private string(): string {
    if (this.ws() !== QUOTE) throw BAIL;
    this.token();
    return this.tokenValue();
  }

  /** A member's key (plain ASCII, unescaped, as on the wire); the reader is left after the colon. */
  private key(): void {
    if (this.ws() !== QUOTE) throw BAIL;
    this.token();
    // an escaped key could spell a known one: the general path decides
    if (this.tf & ESCAPED) throw BAIL;
    this.expect(COLON);
  }

  /** Whether the last key is `name`. */
  private is(name: string): boolean {
    const { b, ts, te } = this;
    if (te - ts !== name.length) return false;
    for (let k = 0; k < name.length; k++) if (b[ts + k] !== name.charCodeAt(k)) return false;
    return true;
  }

  /** Scans a number token at i (after whitespace), strictly by the JSON grammar. */
  private number(): void {
    const b = this.b;
    let i = this.i;
    const start = i;
    let kind = 0;
    if (b[i] === MINUS) i++;
    let c = b[i]!;
    if (c === ZERO) c = b[++i]!;
    else if (c > ZERO && c <= NINE) {
      do c = b[++i]!;
      while (c >= ZERO && c <= NINE);
    } else throw BAIL;
    if (c === DOT) {
      c = b[++i]!;
      if (!(c >= ZERO && c <= NINE)) throw BAIL;
      do c = b[++i]!;
      while (c >= ZERO && c <= NINE);
      kind |= FRACTION;
    }
    if (c === 0x65 || c === 0x45) {
      c = b[++i]!;
      if (c === 0x2b || c === MINUS) c = b[++i]!;
      if (!(c >= ZERO && c <= NINE)) throw BAIL;
      do c = b[++i]!;
      while (c >= ZERO && c <= NINE);
      kind |= EXPONENT;
    }
    this.ns = start;
    this.ne = i;
    this.nk = kind;
    this.i = i;
  }

  /** true, false or null at i (after whitespace). */
  private literal(): boolean | null {
    const b = this.b;
    const i = this.i;
    if (b[i] === 0x74 && b[i + 1] === 0x72 && b[i + 2] === 0x75 && b[i + 3] === 0x65) {
      this.i = i + 4;
      return true;
    }
    if (b[i] === 0x66 && b[i + 1] === 0x61 && b[i + 2] === 0x6c && b[i + 3] === 0x73 && b[i + 4] === 0x65) {
      this.i = i + 5;
      return false;
    }
    if (b[i] === 0x6e && b[i + 1] === 0x75 && b[i + 2] === 0x6c && b[i + 3] === 0x6c) {
      this.i = i + 4;
      return null;
    }
    throw BAIL;
  }

  /** Whether a null is next (consumed). */
  private isNull(): boolean {
    if (this.ws() !== 0x6e) return false;
    this.literal();
    return true;
  }

  /** Any JSON value, as parseExactJson builds it (numbers as ExactNumber). */
  value(depth: number): unknown {
    const c = this.ws();
    if (c === QUOTE) {
      this.token();
      return this.tokenValue();
    }
    if (c === MINUS || (c >= ZERO && c <= NINE)) {
      this.number();
      return new ExactNumber(this.ascii(this.ns, this.ne));
    }
    if (c === LBRACE) {
      if (depth >= MAX_DEPTH) throw BAIL;
      this.i++;
      const o: Obj = {};
      if (this.ws() === RBRACE) {
        this.i++;
        return o;
      }
      do {
        if (this.ws() !== QUOTE) throw BAIL;
        this.token();
        const k = this.tokenValue();
        // JSON.parse makes an own property of it; an assignment would set the prototype
        if (k === '__proto__') throw BAIL;
        this.expect(COLON);
        o[k] = this.value(depth + 1);
      } while (this.more(RBRACE));
      return o;
    }
    if (c === LBRACKET) {
      if (depth >= MAX_DEPTH) throw BAIL;
      this.i++;
      const a: unknown[] = [];
      if (this.ws() === RBRACKET) {
        this.i++;
        return a;
      }
      do a.push(this.value(depth + 1));
      while (this.more(RBRACKET));
      return a;
    }
    return this.literal();
  }

  /** amount(): the exact decimal text of a number, undefined for null or absent. */
  private amount(): string | undefined {
    const c = this.ws();
    if (c === 0x6e) {
      this.literal();
      return undefined;
    }
    if (!(c === MINUS || (c >= ZERO && c <= NINE))) throw BAIL;
    this.number();
    const text = this.ascii(this.ns, this.ne);
    let d = text;
    if (this.nk & EXPONENT) {
      try {
        d = numberTextToDecimal(text);
      } catch {
        throw BAIL;
      }
    }
    // the digits of the decimal (without sign and point) are at most 40
    const digits =
      this.nk & EXPONENT
        ? d.length - (d.charCodeAt(0) === MINUS ? 1 : 0) - (d.includes('.') ? 1 : 0)
        : d.length - (d.charCodeAt(0) === MINUS ? 1 : 0) - (this.nk & FRACTION ? 1 : 0);
    if (digits > 40) throw BAIL;
    return d;
  }

  /** epochMs(): a whole number of milliseconds within range, its digits read as they are scanned. */
  private epochMs(): number {
    const b = this.b;
    this.ws();
    let i = this.i;
    const neg = b[i] === MINUS;
    if (neg) i++;
    let c = b[i]!;
    if (!(c >= ZERO && c <= NINE)) throw BAIL;
    // below 2^53 every step is exact, as Number(text) would be
    let n = 0;
    const first = i;
    do {
      n = n * 10 + (c - ZERO);
      c = b[++i]!;
    } while (c >= ZERO && c <= NINE);
    // a leading zero (not JSON), or a fraction or exponent (not whole milliseconds)
    if ((b[first] === ZERO && i - first > 1) || c === DOT || c === 0x65 || c === 0x45) throw BAIL;
    if (i - first > 15) n = Number(this.ascii(first, i));
    if (neg) n = -n;
    this.i = i;
    if (!Number.isSafeInteger(n) || Math.abs(n) > 8.64e15) throw BAIL;
    return n;
  }

  /** id()/str(): a string no longer than `max`; `required` ones are present and not blank. */
  private text(required: boolean, max: number): string | undefined {
    if (this.isNull()) {
      if (required) throw BAIL;
      return undefined;
    }
    const v = this.string();
    // blank is all white space; a visible ASCII first character settles it without trim()
    if (required) {
      const c = v.charCodeAt(0);
      if (!(c > 0x20 && c < 0x7f) && v.trim() === '') throw BAIL;
    }
    if (v.length > max) throw BAIL;
    return v;
  }

  /** bool(): true, false, or undefined for null. */
  private bool(): boolean | undefined {
    const c = this.ws();
    if (c !== 0x74 && c !== 0x66 && c !== 0x6e) throw BAIL;
    return this.literal() ?? undefined;
  }

  /** payload(): an object, or undefined for null. */
  private payload(): Obj | undefined {
    const c = this.ws();
    if (c === 0x6e) {
      this.literal();
      return undefined;
    }
    if (c !== LBRACE) throw BAIL;
    return this.value(1) as Obj;
  }

  /** The transaction type: compared on the bytes, so that no string is made for it. */
  private transactionType(): TransactionType {
    if (this.ws() !== QUOTE) throw BAIL;
    this.token();
    if (this.tf === 0) {
      for (const t of TRANSACTION_TYPES) if (this.is(t)) return t;
      throw BAIL;
    }
    const v = this.tokenValue();
    const t = TRANSACTION_TYPES.find((x) => x === v);
    if (t === undefined) throw BAIL;
    return t;
  }

  /** The whole body: a CreateTransactionAccountContainer. */
  container(): TransactionContainer {
    if (this.ws() !== LBRACE) throw BAIL;
    this.i++;
    let type: IngestType | undefined;
    let accounts: TransactionAccountEntity[] | undefined;
    let seenType = false;
    if (this.ws() === RBRACE) throw BAIL;
    do {
      this.key();
      if (this.is('type')) {
        if (seenType) throw BAIL;
        seenType = true;
        const v = this.string();
        type = INGEST_TYPES.find((x) => x === v);
        if (type === undefined) throw BAIL;
      } else if (this.is('transactionAccounts')) {
        if (accounts) throw BAIL;
        accounts = this.accounts();
      } else this.value(1);
    } while (this.more(RBRACE));
    this.ws();
    if (this.i !== this.b.length) throw BAIL;
    if (type === undefined || accounts === undefined) throw BAIL;
    return { type, transactionAccounts: accounts, count: this.count };
  }

  private accounts(): TransactionAccountEntity[] {
    this.expect(LBRACKET);
    const list: TransactionAccountEntity[] = [];
    if (this.ws() === RBRACKET) {
      this.i++;
      return list;
    }
    do list.push(this.account());
    while (this.more(RBRACKET));
    return list;
  }

  private account(): TransactionAccountEntity {
    this.expect(LBRACE);
    const entry: TransactionAccountEntity = {
      externalId: undefined,
      platformId: undefined,
      balance: '',
      reservedAmount: undefined,
      payload: undefined,
      transactions: [],
    };
    let seen = 0;
    if (this.ws() === RBRACE) throw BAIL;
    do {
      this.key();
      let bit = 0;
      if (this.is('externalId')) {
        bit = 1;
        entry.externalId = this.text(true, MAX_ID_LENGTH);
      } else if (this.is('balance')) {
        bit = 2;
        const v = this.amount();
        if (v === undefined) throw BAIL;
        entry.balance = v;
      } else if (this.is('reservedAmount')) {
        bit = 4;
        entry.reservedAmount = this.amount();
      } else if (this.is('payload')) {
        bit = 8;
        entry.payload = this.payload();
      } else if (this.is('transactions')) {
        bit = 16;
        entry.transactions = this.transactions();
      } else this.value(1);
      if (seen & bit) throw BAIL;
      seen |= bit;
    } while (this.more(RBRACE));
    // externalId, balance and transactions are required
    if ((seen & 19) !== 19) throw BAIL;
    return entry;
  }

  private transactions(): TransactionEntity[] {
    this.expect(LBRACKET);
    const list: TransactionEntity[] = [];
    if (this.ws() === RBRACKET) {
      this.i++;
      return list;
    }
    do {
      if (++this.count > MAX_TRANSACTIONS_PER_REQUEST) throw BAIL;
      this.ws();
      this.starts.push(this.i);
      list.push(this.transaction());
    } while (this.more(RBRACKET));
    return list;
  }

  transaction(): TransactionEntity {
    this.expect(LBRACE);
    let externalId: string | undefined;
    let amount: string | undefined;
    let date = 0;
    let description: string | undefined;
    let type: TransactionType | undefined;
    let pending: boolean | undefined;
    let platformId: string | undefined;
    let payload: Obj | undefined;
    let seen = 0;
    if (this.ws() === RBRACE) throw BAIL;
    do {
      this.key();
      let bit = 0;
      // by length first: most keys are told apart without comparing bytes
      switch (this.te - this.ts) {
        case 10:
          if (this.is('externalId')) {
            bit = 1;
            externalId = this.text(true, MAX_ID_LENGTH);
          } else if (this.is('platformId')) {
            bit = 64;
            platformId = this.text(false, MAX_ID_LENGTH);
          }
          break;
        case 6:
          if (this.is('amount')) {
            bit = 2;
            amount = this.amount();
            if (amount === undefined) throw BAIL;
          } else if (this.is('tinkId')) {
            // the reference's name of platformId
            bit = 64;
            platformId = this.text(false, MAX_ID_LENGTH);
          }
          break;
        case 4:
          if (this.is('date')) {
            bit = 4;
            date = this.epochMs();
          } else if (this.is('type')) {
            bit = 16;
            if (this.isNull()) throw BAIL;
            type = this.transactionType();
          }
          break;
        case 11:
          if (this.is('description')) {
            bit = 8;
            description = this.text(true, MAX_TEXT_LENGTH);
          }
          break;
        case 7:
          if (this.is('pending')) {
            bit = 32;
            pending = this.bool();
          } else if (this.is('payload')) {
            bit = 128;
            payload = this.payload();
          }
          break;
      }
      // the reference's merchant fields and counterparties: rare, read by the general path
      if (bit === 0 && (this.is('merchantName') || this.is('merchantCategoryCode') || this.is('counterparties')))
        throw BAIL;
      if (bit === 0) this.value(1);
      else if (seen & bit) throw BAIL;
      seen |= bit;
    } while (this.more(RBRACE));
    // externalId, amount, date, description and type are required
    if ((seen & 31) !== 31) throw BAIL;
    const t: TransactionEntity = {
      externalId: externalId!,
      amount: amount!,
      date,
      description: description!,
      type: type!,
      pending,
      platformId,
      payload,
    };
    if (payload) {
      // a payload the reference refuses: the general path says why
      if (transactionPayloadProblem(payload)) throw BAIL;
      if (payload.PENDING_IDS !== undefined) t.pendingIds = strings(payload.PENDING_IDS);
      if (payload.TAGS !== undefined) t.tags = strings(payload.TAGS);
      if (t.pendingIds && t.pending === true) throw BAIL;
      if (t.pendingIds?.includes(t.externalId)) throw BAIL;
    }
    return t;
  }
}

const char = String.fromCharCode;

/** The ASCII bytes [a, e) as a string, e - a < SHORT: a flat string of its own, made in one step. */
function short(b: Buffer, a: number, e: number): string {
  switch (e - a) {
    case 0:
      return '';
    case 1:
      return char(b[a]!);
    case 2:
      return char(b[a]!, b[a + 1]!);
    case 3:
      return char(b[a]!, b[a + 1]!, b[a + 2]!);
    case 4:
      return char(b[a]!, b[a + 1]!, b[a + 2]!, b[a + 3]!);
    case 5:
      return char(b[a]!, b[a + 1]!, b[a + 2]!, b[a + 3]!, b[a + 4]!);
    case 6:
      return char(b[a]!, b[a + 1]!, b[a + 2]!, b[a + 3]!, b[a + 4]!, b[a + 5]!);
    case 7:
      return char(b[a]!, b[a + 1]!, b[a + 2]!, b[a + 3]!, b[a + 4]!, b[a + 5]!, b[a + 6]!);
    case 8:
      return char(b[a]!, b[a + 1]!, b[a + 2]!, b[a + 3]!, b[a + 4]!, b[a + 5]!, b[a + 6]!, b[a + 7]!);
    case 9:
      return char(b[a]!, b[a + 1]!, b[a + 2]!, b[a + 3]!, b[a + 4]!, b[a + 5]!, b[a + 6]!, b[a + 7]!, b[a + 8]!);
    case 10:
      return char(
        b[a]!,
        b[a + 1]!,
        b[a + 2]!,
        b[a + 3]!,
        b[a + 4]!,
        b[a + 5]!,
        b[a + 6]!,
        b[a + 7]!,
        b[a + 8]!,
        b[a + 9]!,
      );
    case 11:
      return char(
        b[a]!,
        b[a + 1]!,
        b[a + 2]!,
        b[a + 3]!,
        b[a + 4]!,
        b[a + 5]!,
        b[a + 6]!,
        b[a + 7]!,
        b[a + 8]!,
        b[a + 9]!,
        b[a + 10]!,
      );
    case 12:
      return char(
        b[a]!,
        b[a + 1]!,
        b[a + 2]!,
        b[a + 3]!,
        b[a + 4]!,
        b[a + 5]!,
        b[a + 6]!,
        b[a + 7]!,
        b[a + 8]!,
        b[a + 9]!,
        b[a + 10]!,
        b[a + 11]!,
      );
    default:
      return b.toString('latin1', a, e);
  }
}

function strings(v: unknown): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw BAIL;
  return v as string[];
}

/**
 * The container of an ingest body, exactly as validateContainer(parseExactJson(text), 'create')
 * gives it, or undefined when the body needs the general path (including every invalid body).
 */
export function parseIngestBody(body: Buffer): TransactionContainer | undefined {
  return parseIngestBodyAt(body)?.container;
}

/** A container read by the fast path, and where each of its transactions starts in the body. */
export interface ParsedIngest {
  container: TransactionContainer;
  /** Byte offsets of the transactions' objects, in order over all accounts. */
  starts: Int32Array;
}

/** parseIngestBody, with each transaction's offset (for transactionAt). */
export function parseIngestBodyAt(body: Buffer): ParsedIngest | undefined {
  if (!isUtf8(body)) return undefined;
  try {
    const r = new Reader(body);
    const container = r.container();
    return { container, starts: Int32Array.from(r.starts) };
  } catch {
    // BAIL, or anything unforeseen: the general path decides, with today's answers
    return undefined;
  }
}

/**
 * The transaction whose object starts at `start` of a body parseIngestBodyAt read: the same entity
 * it gave then (the bytes are the same). A body or offset it did not read is an internal error.
 */
export function transactionAt(body: Buffer, start: number): TransactionEntity {
  const r = new Reader(body);
  r.i = start;
  try {
    return r.transaction();
  } catch (err) {
    throw err === BAIL ? new Error(`ingest body: no transaction the fast path read at byte ${start}`) : err;
  }
}
