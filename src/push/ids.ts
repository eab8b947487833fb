// Duplicate externalIds within one input, found in the validation pass with a fixed cost per
// transaction (two 32-bit hashes and a line number in flat arrays, no string kept): a pair of
// lines whose hashes agree is a candidate, confirmed against the ids' text afterwards.
import { hashBytes } from './by-bytes.js';

/** A second hash of b[s, e), independent of FNV-1a (a multiply-xorshift). */
export function hashBytes2(b: Uint8Array, s: number, e: number): number {
  let h = 0x9e3779b9 ^ (e - s);
  for (let i = s; i < e; i++) {
    h = Math.imul(h ^ b[i]!, 0x5bd1e995);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

/** Where an id is reported: the two hashes and its line. */
export type IdSink = (h1: number, h2: number, line: number) => void;

export function idOfBytes(b: Uint8Array, s: number, e: number, line: number, sink: IdSink): void {
  sink(hashBytes(b, s, e) >>> 0, hashBytes2(b, s, e), line);
}

export function idOfString(id: string, line: number, sink: IdSink): void {
  const b = Buffer.from(id);
  idOfBytes(b, 0, b.length, line, sink);
}

/** Triplets (h1, h2, line) in a growable array: what a worker hands back. */
export class IdList {
  data = new Uint32Array(3 * 1024);
  length = 0;
  readonly sink: IdSink = (h1, h2, line) => {
    if (this.length + 3 > this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = h1;
    this.data[this.length++] = h2;
    this.data[this.length++] = line;
  };
  get triplets(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
}

/** Open addressing over the two hashes; candidates are the (first line, later line) pairs that agree. */
export class IdTable {
  private mask = (1 << 12) - 1;
  private h1 = new Uint32Array(1 << 12);
  private h2 = new Uint32Array(1 << 12);
  private at = new Uint32Array(1 << 12);
  private size = 0;
  readonly candidates: Array<[number, number]> = [];
  readonly sink: IdSink = (a, b, line) => this.add(a, b, line);

  add(a: number, b: number, line: number): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    let i = a & this.mask;
    while (this.at[i] !== 0) {
      if (this.h1[i] === a && this.h2[i] === b) return void this.candidates.push([this.at[i]!, line]);
      i = (i + 1) & this.mask;
    }
    this.h1[i] = a;
    this.h2[i] = b;
    this.at[i] = line;
    this.size++;
  }

  /** Triplets from a segment whose lines start after offset lines. */
  addAll(triplets: Uint32Array, offset: number): void {
    for (let k = 0; k < triplets.length; k += 3) this.add(triplets[k]!, triplets[k + 1]!, triplets[k + 2]! + offset);
  }

  private grow(): void {
    const [h1, h2, at] = [this.h1, this.h2, this.at];
    const n = (this.mask + 1) * 2;
    this.mask = n - 1;
    this.h1 = new Uint32Array(n);
    this.h2 = new Uint32Array(n);
    this.at = new Uint32Array(n);
    this.size = 0;
    for (let i = 0; i < at.length; i++) if (at[i] !== 0) this.add(h1[i]!, h2[i]!, at[i]!);
  }
}
