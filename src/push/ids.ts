// Duplicate externalIds within one input, found in the validation pass with a fixed cost per
// transaction (two 32-bit hashes and a line number in flat arrays, no string kept): a pair of
// lines whose hashes agree is a candidate, confirmed against the ids' text afterwards.

/** Where an id is reported: the two hashes and its line. */
export type IdSink = (h1: number, h2: number, line: number) => void;

/** Both hashes of b[s, e) in one loop: FNV-1a, and a multiply-xorshift . */
export function idOfBytes(b: Uint8Array, s: number, e: number, line: number, sink: IdSink): void {
  let h1 = 0x811c9dc5;
  let h2 = 0x9e3779b9 ^ (e - s);
  for (let i = s; i < e; i++) {
    const c = b[i]!;
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  sink(h1 >>> 0, h2 >>> 0, line);
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

/**
 * Open addressing by the first hash, each slot holding both hashes and the line side by side (one
 * cache line a probe). Candidates are the (earlier line, later line) pairs whose hashes agree:
 * confirmed against the ids' text by the caller.
 */
export class IdTable {
  private mask = (1 << 12) - 1;
  private slots = new Uint32Array(3 << 12);
  private size = 0;
  readonly candidates: Array<[number, number]> = [];
  readonly sink: IdSink = (a, b, line) => this.add(a, b, line);

  add(a: number, b: number, line: number): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    const slots = this.slots;
    let i = (a & this.mask) * 3;
    const end = slots.length;
    while (slots[i + 2] !== 0) {
      if (slots[i] === a && slots[i + 1] === b) return void this.candidates.push([slots[i + 2]!, line]);
      i += 3;
      if (i === end) i = 0;
    }
    slots[i] = a;
    slots[i + 1] = b;
    slots[i + 2] = line;
    this.size++;
  }

  /** Triplets from a segment whose lines start after offset lines. */
  addAll(triplets: Uint32Array, offset: number): void {
    for (let k = 0; k < triplets.length; k += 3) this.add(triplets[k]!, triplets[k + 1]!, triplets[k + 2]! + offset);
  }

  private grow(): void {
    const old = this.slots;
    const n = (this.mask + 1) * 2;
    this.mask = n - 1;
    this.slots = new Uint32Array(3 * n);
    this.size = 0;
    for (let i = 0; i < old.length; i += 3) if (old[i + 2] !== 0) this.add(old[i]!, old[i + 1]!, old[i + 2]!);
  }
}
