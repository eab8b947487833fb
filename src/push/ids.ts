// Duplicate externalIds within one input, found in the validation pass with 8 bytes per transaction
// and no string kept: each id is hashed to 64 bits (two 32-bit hashes), the hashes are kept in
// sorted runs of fixed size (no table to grow and rehash, no line numbers), and one merge of the runs
// finds the hashes seen more than once. Those are only candidates: the caller reads the ids of just
// those hashes again, with their lines, and compares their text. Memory is what the hashes take,
// 8 MB for a million transactions, in pieces of half a megabyte that a worker hands over whole.

/** Where an id's two hashes go. */
export type IdSink = (h1: number, h2: number) => void;

/** Both hashes of b[s, e) in one loop: FNV-1a, and a multiply-xorshift. */
export function idOfBytes(b: Uint8Array, s: number, e: number, sink: IdSink): void {
  let h1 = 0x811c9dc5;
  let h2 = 0x9e3779b9 ^ (e - s);
  for (let i = s; i < e; i++) {
    const c = b[i]!;
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  sink(h1 >>> 0, h2 >>> 0);
}

export function idOfString(id: string, sink: IdSink): void {
  const b = Buffer.from(id);
  idOfBytes(b, 0, b.length, sink);
}

/** The key of a hash pair in the set of repeated ones. */
export const hashKey = (h1: number, h2: number): string => `${h1}:${h2}`;

/** Hashes a run holds: 512 kB each. */
export const RUN_IDS = 1 << 16;
/** Which of a pair's two words BigUint64Array sorts by first (the high word): h2 on little-endian. */
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
const LOW = 1 - HIGH;

/**
 * Hash pairs (h1, h2) in runs of RUN_IDS, each sorted (as 64-bit numbers, natively) when it is full;
 * runs() seals the last one. A worker posts its runs' buffers as they are.
 */
export class IdRuns {
  private readonly sealed: Uint32Array[] = [];
  private current = new Uint32Array(0);
  private n = 0;
  readonly sink: IdSink = (h1, h2) => {
    // a new run's buffer when the last one was sealed (so a sealed run is never written again)
    if (this.n === 0) this.current = new Uint32Array(2 * RUN_IDS);
    const at = 2 * this.n;
    this.current[at] = h1;
    this.current[at + 1] = h2;
    if (++this.n === RUN_IDS) this.seal();
  };

  private seal(): void {
    const run = this.current.subarray(0, 2 * this.n);
    new BigUint64Array(run.buffer, run.byteOffset, this.n).sort();
    this.sealed.push(run);
    this.n = 0;
  }

  /** Sorted runs of another IdRuns (a worker's). */
  adopt(runs: readonly Uint32Array[]): void {
    this.sealed.push(...runs);
  }

  /** Every run, sorted (the last one sealed now). */
  runs(): Uint32Array[] {
    if (this.n > 0) this.seal();
    return this.sealed;
  }

  /**
   * Done with: the runs' memory (8 bytes a transaction) goes back now. Dropped, it would wait for
   * the next full GC, which a push that allocates little may not run before it ends: 8 MB of a
   * million's peak RSS. Each buffer is moved (transferred) into a clone nothing keeps, which the
   * next young-generation GC frees; the runs are then empty. Answers how many bytes went.
   */
  dispose(): number {
    const buffers = new Set<ArrayBufferLike>();
    let bytes = 0;
    for (const run of this.sealed) buffers.add(run.buffer);
    buffers.add(this.current.buffer);
    for (const b of buffers)
      if (b instanceof ArrayBuffer && b.byteLength > 0) {
        bytes += b.byteLength;
        structuredClone(b, { transfer: [b] });
      }
    this.sealed.length = 0;
    this.current = new Uint32Array(0);
    this.n = 0;
    return bytes;
  }
}

/**
 * The hashes that occur more than once across sorted runs, by a k-way merge (a binary heap of the
 * runs by their next pair, ordered as BigUint64Array sorts): equal pairs come out one after another.
 */
export function repeatedHashes(runs: readonly Uint32Array[]): Set<string> {
  const out = new Set<string>();
  const list = runs.filter((r) => r.length > 0);
  const k = list.length;
  const pos = new Int32Array(k);
  // each run's next pair as signed words that order as the unsigned ones (x ^ 2^31): plain int32
  // compares, no number boxed on the way (this loop runs once per transaction)
  const high = new Int32Array(k);
  const low = new Int32Array(k);
  const load = (r: number): void => {
    const run = list[r]!;
    high[r] = run[pos[r]! + HIGH]! ^ 0x80000000;
    low[r] = run[pos[r]! + LOW]! ^ 0x80000000;
  };
  const less = (a: number, b: number): boolean => high[a]! < high[b]! || (high[a] === high[b] && low[a]! < low[b]!);
  const heap = new Int32Array(k);
  let size = k;
  for (let r = 0; r < k; r++) {
    heap[r] = r;
    load(r);
  }
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) return;
      const c = l + 1 < size && less(heap[l + 1]!, heap[l]!) ? l + 1 : l;
      if (!less(heap[c]!, heap[i]!)) return;
      const t = heap[c]!;
      heap[c] = heap[i]!;
      heap[i] = t;
      i = c;
    }
  };
  for (let i = (size >> 1) - 1; i >= 0; i--) down(i);
  let seen = false;
  let lastHigh = 0;
  let lastLow = 0;
  while (size > 0) {
    const r = heap[0]!;
    const h = high[r]!;
    const l = low[r]!;
    if (seen && h === lastHigh && l === lastLow) {
      const run = list[r]!;
      out.add(hashKey(run[pos[r]!]!, run[pos[r]! + 1]!));
    }
    seen = true;
    lastHigh = h;
    lastLow = l;
    pos[r] = pos[r]! + 2;
    if (pos[r] === list[r]!.length) heap[0] = heap[--size]!;
    else load(r);
    down(0);
  }
  return out;
}
