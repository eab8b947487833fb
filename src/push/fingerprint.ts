// `connector verify`'s per-account fingerprint: which transactions (externalId and exact amount)
// an account holds, in 64 bits and in any order. A count and a sum pass when two transactions of
// one account swap their amounts, or one is a cent more and another a cent less; the fingerprint
// does not. Each transaction's term is a hash of its externalId and its amount (normalised: "12.30"
// and unscaled 123 at scale 1 are one amount); an account's fingerprint is the sum of its terms
// modulo 2^32 in two lanes, so the order of the file and of the pages does not matter, a pending
// transaction replaced later in the file is taken out again, and memory is two numbers an account.
// The date is left out: how the service maps an epoch time to a booked day is its own business.

const TWO_32 = 4_294_967_296;

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Fingerprint {
  private a = 0;
  private b = 0;

  equals(o: Fingerprint): boolean {
    return this.a === o.a && this.b === o.b;
  }

  /** Adds (sign 1) or takes out (sign -1) the term the hash state h holds. */
  apply(h: TermHash, sign: 1 | -1): void {
    const x = fmix(h.h1 ^ 0x2545f491);
    const y = fmix(h.h2 ^ 0x7f4a7c15);
    this.a = (this.a + sign * x + TWO_32) % TWO_32;
    this.b = (this.b + sign * y + TWO_32) % TWO_32;
  }
}

/**
 * The running hash of one transaction's term: start(), the externalId (as UTF-16 code units, from a
 * string or from ASCII bytes), the amount, then Fingerprint.apply. One per reader, reused.
 */
export class TermHash {
  h1 = 0;
  h2 = 0;

  start(): this {
    this.h1 = 0x811c9dc5;
    this.h2 = 0x1b873593;
    return this;
  }

  private unit(c: number): void {
    this.h1 = Math.imul(this.h1 ^ c, 0x01000193);
    const h = Math.imul(this.h2 ^ c, 0x5bd1e995);
    this.h2 = h ^ (h >>> 13);
  }

  id(s: string): this {
    for (let i = 0; i < s.length; i++) this.unit(s.charCodeAt(i));
    this.unit(0x10000 | s.length);
    return this;
  }

  /**
   * The id from bytes b[s, e), in one pass: false when a byte is not ASCII, the hash then half made
   * (start() again and give the id as a string).
   */
  idAscii(b: Uint8Array, s: number, e: number): boolean {
    for (let i = s; i < e; i++) {
      const c = b[i]!;
      if (c >= 0x80) return false;
      this.unit(c);
    }
    this.unit(0x10000 | (e - s));
    return true;
  }

  /** An amount of unscaled (a safe integer) at scale >= 0. */
  amount(unscaled: number, scale: number): this {
    let v = unscaled;
    let s = scale;
    while (s > 0 && v % 10 === 0) {
      v /= 10;
      s--;
    }
    const neg = v < 0 ? 1 : 0;
    const m = Math.abs(v);
    this.unit(0x20000 | (s << 1) | neg);
    this.unit(m % TWO_32);
    this.unit(Math.floor(m / TWO_32));
    return this;
  }

  /** Any exact amount; the same term as amount() for the same value. */
  amountBig(unscaled: bigint, scale: number): this {
    let v = unscaled;
    let s = scale;
    if (s < 0) {
      v *= 10n ** BigInt(-s);
      s = 0;
    }
    while (s > 0 && v % 10n === 0n) {
      v /= 10n;
      s--;
    }
    if (v >= -BigInt(Number.MAX_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)) return this.amount(Number(v), s);
    const text = v.toString();
    this.unit(0x40000 | s);
    for (let i = 0; i < text.length; i++) this.unit(text.charCodeAt(i));
    return this;
  }
}
