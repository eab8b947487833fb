// A Map with string keys over an open-addressing table of [hash, entry] pairs in an Int32Array, the
// entries kept in insertion order. It answers as a Map does (get, has, set, delete, clear, size,
// forEach, keys, values, entries, iteration in insertion order that sees changes made meanwhile).
// Used for the store's transactions by id and each connector user's transactions by externalId.
//
// Why not a Map: every ingested transaction is looked up (is it new?) and then added. With a million
// of them, a Map lookup that misses costs several cache misses (bucket, entry, the key string of
// each candidate); here it reads one slot, usually in one cache line, and compares a key string
// only when its 32-bit hash matches. The hash is seeded per index, and a probe sequence grown
// suspiciously long (keys chosen to collide) makes the index draw a new seed, once per growth.
// Measured by bench/experiments/ingest-store.mjs: the store's ids in a Map cost 0.6 µs more per
// ingested transaction than in this table.
//
// A subclass may also hold entries whose key and value are not made yet (putLazy): the entry keeps a
// number (the subclass's reference) in place of its key string, and the subclass makes the key when
// a look-up's hash matches (lazyKey) and every value at once when one is read (resolveLazy). The
// connector's externalId index keeps an ingest's transactions so until they are read.
import { randomBytes } from 'node:crypto';

const EMPTY = 0;
const DELETED = -1;
/** Probes after which the table is rebuilt with a new seed. */
const MAX_PROBES = 64;
const MIN_CAPACITY = 16;

const newSeed = () => randomBytes(4).readInt32LE(0);

export class StringMap<V> implements Map<string, V> {
  readonly [Symbol.toStringTag] = 'StringMap';

  /**
   * Entries in insertion order; a deleted one has key undefined until the next rebuild, a lazy one
   * (putLazy) a number and value undefined until resolveLazy gives them.
   */
  protected entryKeys: Array<string | number | undefined> = [];
  protected entryVals: Array<V | undefined> = [];
  /** Lazy entries not resolved yet (putLazy); a subclass's resolveLazy sets it back to 0. */
  protected lazyEntries = 0;
  /** Pairs [hash, entry + 1 | EMPTY | DELETED]; a power-of-two number of pairs. */
  private slots = new Int32Array(2 * MIN_CAPACITY);
  private mask = MIN_CAPACITY - 1;
  private live = 0;
  /** Slots that are not EMPTY (live or DELETED): they bound the probe sequences. */
  private used = 0;
  /** Iterations under way: entries are not compacted under them. */
  private walking = 0;
  private seed = newSeed();
  private seeds = 0;
  /** A new seed was drawn since the table last grew: long probes are then only walked. */
  private reseeded = false;

  get size(): number {
    return this.live;
  }

  /** Counts the seeds drawn: a hash from hash() is valid while this stays the same. */
  get epoch(): number {
    return this.seeds;
  }

  /** The key's hash under the current seed, for hasHashed and setHashed. */
  hashOf(k: string): number {
    return this.hash(k);
  }

  protected hash(k: string): number {
    let h = this.seed ^ k.length;
    for (let i = 0; i < k.length; i++) h = Math.imul(h ^ k.charCodeAt(i), 0x01000193);
    // murmur3's finaliser: every bit of the state reaches the low bits that pick the slot
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    return h ^ (h >>> 16);
  }

  /** The slot holding k, or -1. */
  private find(k: string, h: number): number {
    const s = this.slots;
    const mask = this.mask;
    let i = h & mask;
    for (;;) {
      const e = s[2 * i + 1]!;
      if (e === EMPTY) return -1;
      if (e > 0 && s[2 * i] === h && this.keyIs(e - 1, k)) return i;
      i = (i + 1) & mask;
    }
  }

  /** Whether entry e's key is k (a lazy key is made to compare: its hash matched already). */
  private keyIs(e: number, k: string): boolean {
    const key = this.entryKeys[e];
    return key === k || (typeof key === 'number' && this.lazyKey(key) === k);
  }

  /** The key of a lazy entry, from the subclass's reference. */
  protected lazyKey(_ref: number): string {
    throw new Error('StringMap: no lazy entries here');
  }

  /**
   * Gives every lazy entry its key and value (replaceLazy) and sets lazyEntries to 0; called before
   * a lazy entry's value is read or an iteration starts.
   */
  protected resolveLazy(): void {
    throw new Error('StringMap: no lazy entries here');
  }

  /** For resolveLazy: each lazy entry's key and value, from its reference. */
  protected replaceLazy(make: (ref: number) => [string, V]): void {
    for (let e = 0; e < this.entryKeys.length; e++) {
      const key = this.entryKeys[e];
      if (typeof key !== 'number') continue;
      const [k, v] = make(key);
      this.entryKeys[e] = k;
      this.entryVals[e] = v;
    }
    this.lazyEntries = 0;
  }

  get(k: string): V | undefined {
    const i = this.find(k, this.hash(k));
    if (i < 0) return undefined;
    const e = this.slots[2 * i + 1]! - 1;
    if (typeof this.entryKeys[e] === 'number') this.resolveLazy();
    return this.entryVals[e];
  }

  has(k: string): boolean {
    return this.find(k, this.hash(k)) >= 0;
  }

  /** has(k), with h = hash(k) (the ingest hashes each externalId once for both its look-up and set). */
  hasHashed(k: string, h: number): boolean {
    return this.find(k, h) >= 0;
  }

  set(k: string, v: V): this {
    return this.setHashed(k, this.hash(k), v);
  }

  /** set(k, v), with h = hash(k) taken under the current seed (the same epoch). */
  setHashed(k: string, h: number, v: V): this {
    return this.put(k, h, v, k);
  }

  /**
   * A lazy entry for k, which must not be in the map: it keeps `ref` until resolveLazy; h is
   * hash(k) under the current seed, or undefined. The added hook is not called for it.
   */
  protected putLazy(k: string, h: number | undefined, ref: number): void {
    this.put(k, h ?? this.hash(k), undefined, ref);
  }

  private put(k: string, h: number, v: V | undefined, stored: string | number): this {
    const s = this.slots;
    const mask = this.mask;
    let i = h & mask;
    let free = -1;
    for (let probes = 0; ; probes++) {
      const e = s[2 * i + 1]!;
      if (e === EMPTY) break;
      if (e === DELETED) {
        if (free < 0) free = i;
      } else if (s[2 * i] === h && this.keyIs(e - 1, k)) {
        if (typeof stored === 'number') throw new Error('StringMap.putLazy: the key is in the map');
        if (typeof this.entryKeys[e - 1] === 'number') this.resolveLazy();
        // a key set again keeps its place in the order, as in a Map
        const old = this.entryVals[e - 1]!;
        this.entryVals[e - 1] = v;
        this.removed(old);
        this.added(v!);
        return this;
      }
      if (probes === MAX_PROBES && !this.reseeded) {
        this.reseeded = true;
        this.rebuild(2 * (mask + 1), true);
        return this.put(k, this.hash(k), v, stored);
      }
      i = (i + 1) & mask;
    }
    if (free >= 0) i = free;
    else this.used++;
    this.entryKeys.push(stored);
    this.entryVals.push(v);
    s[2 * i] = h;
    s[2 * i + 1] = this.entryKeys.length;
    this.live++;
    if (typeof stored === 'number') this.lazyEntries++;
    else this.added(v!);
    // at most half of the slots used: double when live keys fill a quarter, else clear the deleted
    if (this.used * 2 > mask + 1) {
      const grow = this.live * 4 > mask + 1;
      if (grow) this.reseeded = false;
      this.rebuild(grow ? 2 * (mask + 1) : mask + 1, false);
    }
    return this;
  }

  delete(k: string): boolean {
    const i = this.find(k, this.hash(k));
    if (i < 0) return false;
    const e = this.slots[2 * i + 1]! - 1;
    // a lazy entry goes without being made (its value was never added either)
    const lazy = typeof this.entryKeys[e] === 'number';
    const old = this.entryVals[e]!;
    this.entryKeys[e] = undefined;
    this.entryVals[e] = undefined;
    this.slots[2 * i + 1] = DELETED;
    this.live--;
    if (lazy) this.lazyEntries--;
    else this.removed(old);
    return true;
  }

  /** Empties the map; an iteration under way ends (the entries it had not reached are gone). */
  clear(): void {
    this.entryKeys.length = 0;
    this.entryVals.length = 0;
    this.slots = new Int32Array(2 * MIN_CAPACITY);
    this.mask = MIN_CAPACITY - 1;
    this.live = 0;
    this.used = 0;
    this.lazyEntries = 0;
    this.reseeded = false;
    this.cleared();
  }

  /** Hooks for a subclass that keeps something beside the entries: a value came in, went, or all went. */
  protected added(_v: V): void {}
  protected removed(_v: V): void {}
  protected cleared(): void {}

  forEach(fn: (value: V, key: string, map: Map<string, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this) fn.call(thisArg, v, k, this);
  }

  entries(): MapIterator<[string, V]> {
    return this[Symbol.iterator]();
  }

  *keys(): MapIterator<string> {
    if (this.lazyEntries > 0) this.resolveLazy();
    this.walking++;
    try {
      for (let e = 0; e < this.entryKeys.length; e++) {
        const k = this.entryKeys[e];
        if (k !== undefined) yield typeof k === 'number' ? this.lazyKey(k) : k;
      }
    } finally {
      this.walking--;
    }
  }

  *values(): MapIterator<V> {
    if (this.lazyEntries > 0) this.resolveLazy();
    this.walking++;
    try {
      for (let e = 0; e < this.entryKeys.length; e++) {
        if (this.entryKeys[e] === undefined) continue;
        // a lazy entry added during the walk
        if (typeof this.entryKeys[e] === 'number') this.resolveLazy();
        yield this.entryVals[e]!;
      }
    } finally {
      this.walking--;
    }
  }

  /** [key, value] in insertion order; like a Map's, it sees deletions and additions made meanwhile. */
  *[Symbol.iterator](): MapIterator<[string, V]> {
    if (this.lazyEntries > 0) this.resolveLazy();
    this.walking++;
    try {
      for (let e = 0; e < this.entryKeys.length; e++) {
        if (this.entryKeys[e] === undefined) continue;
        // a lazy entry added during the walk
        if (typeof this.entryKeys[e] === 'number') this.resolveLazy();
        yield [this.entryKeys[e] as string, this.entryVals[e]!];
      }
    } finally {
      this.walking--;
    }
  }

  /** Slots for `capacity` pairs (a power of two); the entries compacted unless an iteration runs. */
  private rebuild(capacity: number, reseed: boolean): void {
    const old = this.slots;
    const n = this.entryKeys.length;
    // the hash of each entry, from its slot (or anew under a new seed)
    const hashes = new Int32Array(n);
    if (reseed) {
      this.seed = newSeed();
      this.seeds++;
      for (let e = 0; e < n; e++) {
        const k = this.entryKeys[e];
        if (k !== undefined) hashes[e] = this.hash(typeof k === 'number' ? this.lazyKey(k) : k);
      }
    } else {
      for (let i = 0; i < old.length; i += 2) if (old[i + 1]! > 0) hashes[old[i + 1]! - 1] = old[i]!;
    }
    if (this.walking === 0 && this.live < n) {
      let w = 0;
      for (let e = 0; e < n; e++) {
        if (this.entryKeys[e] === undefined) continue;
        this.entryKeys[w] = this.entryKeys[e];
        this.entryVals[w] = this.entryVals[e];
        hashes[w] = hashes[e]!;
        w++;
      }
      this.entryKeys.length = w;
      this.entryVals.length = w;
    }
    const slots = new Int32Array(2 * capacity);
    const mask = capacity - 1;
    for (let e = 0; e < this.entryKeys.length; e++) {
      if (this.entryKeys[e] === undefined) continue;
      let i = hashes[e]! & mask;
      while (slots[2 * i + 1] !== EMPTY) i = (i + 1) & mask;
      slots[2 * i] = hashes[e]!;
      slots[2 * i + 1] = e + 1;
    }
    this.slots = slots;
    this.mask = mask;
    this.used = this.live;
  }
}
