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
/** 1 for the bytes a string's content passes over without a look (not a quote, backslash or control). */
const PLAIN = new Uint8Array(256);
for (let c = 0x20; c < 256; c++) PLAIN[c] = c === QUOTE || c === BACKSLASH ? 0 : 1;
/** Deeper than this is not a transactions page: the exact reader takes it. */
const MAX_DEPTH = 64;

const bytes = (s: string) => Uint8Array.from(Buffer.from(s, 'latin1'));
const K_TRANSACTIONS = bytes('transactions');
const K_NEXT = bytes('nextPageToken');
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

/** Thrown inside the scan for anything it does not take; never leaves this module. */
class Declined {}
const DECLINED = new Declined();

class Scanner {
  i = 0;
  /** Where the last string's content started and ended (the quotes excluded), and whether it had escapes. */
  s = 0;
  e = 0;
  escaped = false;

  constructor(
    private readonly b: Buffer,
    private readonly n: number,
  ) {}

  ws(): void {
    const b = this.b;
    let i = this.i;
    for (;;) {
      const c = b[i];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.i = i;
  }

  expect(c: number): void {
    this.ws();
    if (this.b[this.i] !== c) throw DECLINED;
    this.i++;
  }

  /** At a quote: past the string, its content in [s, e). JSON's rules: escapes, no raw control characters. */
  string(): void {
    const b = this.b;
    const n = this.n;
    let i = this.i;
    if (b[i] !== QUOTE) throw DECLINED;
    i++;
    this.s = i;
    let escaped = false;
    for (;;) {
      // the plain run of the string, one table look-up a byte (past the end, PLAIN[undefined] stops it)
      while (PLAIN[b[i]!] === 1) i++;
      if (i >= n) throw DECLINED;
      const c = b[i]!;
      if (c === QUOTE) break;
      if (c < 0x20) throw DECLINED;
      if (c === BACKSLASH) {
        escaped = true;
        const d = b[i + 1];
        if (d === 0x75) {
          for (let k = i + 2; k < i + 6; k++) {
            const h = b[k];
            if (h === undefined || !((h >= ZERO && h <= NINE) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66)))
              throw DECLINED;
          }
          i += 6;
          continue;
        }
        if (
          d !== QUOTE &&
          d !== BACKSLASH &&
          d !== 0x2f &&
          d !== 0x62 &&
          d !== 0x66 &&
          d !== 0x6e &&
          d !== 0x72 &&
          d !== 0x74
        )
          throw DECLINED;
        i += 2;
        continue;
      }
      i++;
    }
    this.e = i;
    this.escaped = escaped;
    this.i = i + 1;
  }

  /** The last string's value, as JSON.parse gives it. */
  text(): string {
    if (!this.escaped)
      return (this.b as Buffer & { utf8Slice(s: number, e: number): string }).utf8Slice(this.s, this.e);
    return JSON.parse(this.b.toString('utf8', this.s - 1, this.e + 1)) as string;
  }

  /** Whether the last string is exactly key (escaped keys are never one of the wanted names). */
  is(key: Uint8Array): boolean {
    if (this.escaped || this.e - this.s !== key.length) return false;
    const b = this.b;
    for (let k = 0; k < key.length; k++) if (b[this.s + k] !== key[k]) return false;
    return true;
  }

  /** A number by JSON's grammar; its text in [s, e). */
  number(): void {
    const b = this.b;
    let i = this.i;
    this.s = i;
    if (b[i] === MINUS) i++;
    if (b[i] === ZERO) i++;
    else if (b[i]! >= 0x31 && b[i]! <= NINE) while (b[i]! >= ZERO && b[i]! <= NINE) i++;
    else throw DECLINED;
    if (b[i] === DOT) {
      i++;
      if (!(b[i]! >= ZERO && b[i]! <= NINE)) throw DECLINED;
      while (b[i]! >= ZERO && b[i]! <= NINE) i++;
    }
    if (b[i] === 0x65 || b[i] === 0x45) {
      i++;
      if (b[i] === PLUS || b[i] === MINUS) i++;
      if (!(b[i]! >= ZERO && b[i]! <= NINE)) throw DECLINED;
      while (b[i]! >= ZERO && b[i]! <= NINE) i++;
    }
    this.e = i;
    this.i = i;
  }

  literal(word: Uint8Array): void {
    for (let k = 0; k < word.length; k++) if (this.b[this.i + k] !== word[k]) throw DECLINED;
    this.i += word.length;
  }

  /** Any JSON value, checked and passed over. */
  skip(depth: number): void {
    this.ws();
    const c = this.b[this.i];
    if (c === QUOTE) return this.string();
    if (c === LBRACE) {
      if (this.open(LBRACE, RBRACE, depth + 1))
        do {
          this.key();
          this.skip(depth + 1);
        } while (this.more(RBRACE));
      return;
    }
    if (c === LBRACKET) {
      if (this.open(LBRACKET, RBRACKET, depth + 1))
        do this.skip(depth + 1);
        while (this.more(RBRACKET));
      return;
    }
    if (c === 0x74) return this.literal(L_TRUE);
    if (c === 0x66) return this.literal(L_FALSE);
    if (c === 0x6e) return this.literal(L_NULL);
    return this.number();
  }

  /** Past an object's or array's opening; false when it is empty (and passed over whole). */
  open(opening: number, closing: number, depth: number): boolean {
    if (depth > MAX_DEPTH) throw DECLINED;
    this.expect(opening);
    this.ws();
    if (this.b[this.i] !== closing) return true;
    this.i++;
    return false;
  }

  /** A member's name (the last string, for is()) and its colon. */
  key(): void {
    this.ws();
    this.string();
    // an escaped name may spell a wanted one ("account\u0049d"): JSON.parse's reading of it is the one
    if (this.escaped) throw DECLINED;
    this.expect(COLON);
  }

  /** After a member or element: true past a comma, false past the closing. */
  more(closing: number): boolean {
    this.ws();
    const c = this.b[this.i];
    this.i++;
    if (c === COMMA) return true;
    if (c === closing) return false;
    throw DECLINED;
  }

  /** A wanted string member: a string, and the first of its name in its object. */
  wantedString(seen: boolean): string {
    if (seen) throw DECLINED;
    this.ws();
    this.string();
    return this.text();
  }

  /** A number or a string holding the amount's scale or unscaled value, as JSON.parse would give it. */
  amountPart(seen: boolean): string | number {
    if (seen) throw DECLINED;
    this.ws();
    if (this.b[this.i] === QUOTE) {
      this.string();
      return this.text();
    }
    this.number();
    const v = Number(this.b.toString('latin1', this.s, this.e));
    // beyond 2^53 JSON.parse rounds; the exact reader keeps every digit
    if (!Number.isSafeInteger(v)) throw DECLINED;
    return v;
  }

  transaction(): SlimTransaction {
    let accountId: string | undefined;
    let unscaledValue: string | number | undefined;
    let scale: string | number | undefined;
    let providerTransactionId: string | undefined;
    let amount = false;
    let value = false;
    let identifiers = false;
    if (this.open(LBRACE, RBRACE, 2))
      do {
        this.key();
        if (this.is(K_ACCOUNT)) accountId = this.wantedString(accountId !== undefined);
        else if (this.is(K_AMOUNT)) {
          if (amount) throw DECLINED;
          amount = true;
          if (this.open(LBRACE, RBRACE, 3))
            do {
              this.key();
              if (!this.is(K_VALUE)) this.skip(3);
              else {
                if (value) throw DECLINED;
                value = true;
                if (this.open(LBRACE, RBRACE, 4))
                  do {
                    this.key();
                    if (this.is(K_UNSCALED)) unscaledValue = this.amountPart(unscaledValue !== undefined);
                    else if (this.is(K_SCALE)) scale = this.amountPart(scale !== undefined);
                    else this.skip(4);
                  } while (this.more(RBRACE));
              }
            } while (this.more(RBRACE));
        } else if (this.is(K_IDENTIFIERS)) {
          if (identifiers) throw DECLINED;
          identifiers = true;
          this.ws();
          if (this.b[this.i] !== LBRACE) this.skip(2);
          else if (this.open(LBRACE, RBRACE, 3))
            do {
              this.key();
              if (!this.is(K_PROVIDER_TX)) this.skip(3);
              else providerTransactionId = this.wantedString(providerTransactionId !== undefined);
            } while (this.more(RBRACE));
        } else this.skip(2);
      } while (this.more(RBRACE));
    if (accountId === undefined || unscaledValue === undefined || scale === undefined) throw DECLINED;
    return providerTransactionId === undefined
      ? { accountId, unscaledValue, scale }
      : { accountId, unscaledValue, scale, providerTransactionId };
  }

  page(): SlimPage {
    let transactions: SlimTransaction[] | undefined;
    let nextPageToken: string | undefined;
    let next = false;
    if (this.open(LBRACE, RBRACE, 1))
      do {
        this.key();
        if (this.is(K_TRANSACTIONS)) {
          if (transactions) throw DECLINED;
          transactions = [];
          if (this.open(LBRACKET, RBRACKET, 1))
            do transactions.push(this.transaction());
            while (this.more(RBRACKET));
        } else if (this.is(K_NEXT)) {
          if (next) throw DECLINED;
          next = true;
          this.ws();
          if (this.b[this.i] === QUOTE) nextPageToken = this.wantedString(false);
          else this.literal(L_NULL);
        } else this.skip(1);
      } while (this.more(RBRACE));
    this.ws();
    if (this.i !== this.n || !transactions) throw DECLINED;
    return nextPageToken === undefined ? { transactions } : { transactions, nextPageToken };
  }
}

/** The page's wanted fields, or undefined when the body is for the exact reader (see above). */
export function scanTransactionsPage(body: Buffer): SlimPage | undefined {
  // a byte order mark, as the text reader drops it
  const start = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  const sc = new Scanner(body, body.length);
  sc.i = start;
  try {
    return sc.page();
  } catch (err) {
    if (err === DECLINED) return undefined;
    throw err;
  }
}
