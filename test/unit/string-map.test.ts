// StringMap (the store's transactions by id, the connector's by externalId) behaves as the Map it
// replaced: get, has, set, delete, clear, size, forEach, keys, values, entries and iteration in
// insertion order (also while it changes); and its hooks see every value come and go.
import { expect, test } from 'vitest';
import fc from 'fast-check';
import { StringMap } from '../../src/sandbox/string-map.js';

type Op =
  | ['set', string, number]
  | ['delete', string]
  | ['get', string]
  | ['walk-delete', number]
  | ['walk-set', number]
  | ['clear'];

const key = fc.oneof(
  fc.constantFrom('a', 'b', 'tx-1', 'tx-2', '', 'é', '\u{1F600}'),
  fc.string({ maxLength: 6 }),
  fc.nat(400).map((n) => `k-${n}`),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constant('set' as const), key, fc.integer()) },
  { weight: 3, arbitrary: fc.tuple(fc.constant('delete' as const), key) },
  { weight: 3, arbitrary: fc.tuple(fc.constant('get' as const), key) },
  { weight: 1, arbitrary: fc.tuple(fc.constant('walk-delete' as const), fc.nat(5)) },
  { weight: 1, arbitrary: fc.tuple(fc.constant('walk-set' as const), fc.nat(5)) },
  { weight: 1, arbitrary: fc.tuple(fc.constant('clear' as const)) },
);

/** Runs the same operations on a Map and an index and compares them after each. */
function check(ops: Op[], index: StringMap<number>): void {
  const map = new Map<string, number>();
  ops.forEach((o, at) => {
    if (o[0] === 'set') {
      expect(index.set(o[1], o[2])).toBe(index);
      map.set(o[1], o[2]);
    } else if (o[0] === 'delete') expect(index.delete(o[1])).toBe(map.delete(o[1]));
    else if (o[0] === 'clear') {
      index.clear();
      map.clear();
    } else if (o[0] === 'get') {
      expect(index.get(o[1])).toBe(map.get(o[1]));
      expect(index.has(o[1])).toBe(map.has(o[1]));
    } else {
      // changed while walked: deletions as the account delete does them, and a few additions
      const walk = (
        m: { delete(k: string): boolean; set(k: string, v: number): unknown } & Iterable<[string, number]>,
      ) => {
        const seen: Array<[string, number]> = [];
        let i = 0;
        for (const [k, v] of m) {
          seen.push([k, v]);
          if (i++ % (o[1] + 2) !== 0) continue;
          if (o[0] === 'walk-delete') m.delete(k);
          else if (i < 4) for (let j = 0; j < 40; j++) m.set(`w-${at}-${i}-${j}`, j);
        }
        return seen;
      };
      expect(walk(index)).toEqual(walk(map));
    }
    expect(index.size).toBe(map.size);
  });
  expect([...index]).toEqual([...map]);
  expect([...index.entries()]).toEqual([...map.entries()]);
  expect([...index.keys()]).toEqual([...map.keys()]);
  expect([...index.values()]).toEqual([...map.values()]);
  const seen: unknown[] = [];
  index.forEach(function (this: unknown, v, k, m) {
    seen.push([k, v, m === index, this]);
  }, 'arg');
  expect(seen).toEqual([...map].map(([k, v]) => [k, v, true, 'arg']));
}

/** Counts what the hooks are told: the live values must be exactly what was added and not removed. */
class Counted extends StringMap<number> {
  heard = new Map<number, number>();
  protected override added(v: number): void {
    this.heard.set(v, (this.heard.get(v) ?? 0) + 1);
  }
  protected override removed(v: number): void {
    const n = this.heard.get(v)! - 1;
    if (n === 0) this.heard.delete(v);
    else this.heard.set(v, n);
  }
  protected override cleared(): void {
    this.heard.clear();
  }
}

test('the hooks hear of every value set, replaced, deleted and cleared', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
      const index = new Counted();
      check(ops, index);
      const expected = new Map<number, number>();
      for (const v of index.values()) expected.set(v, (expected.get(v) ?? 0) + 1);
      expect(index.heard).toEqual(expected);
    }),
    { numRuns: 200, seed: 2 },
  );
});

test('random operations: the same answers and order as a Map', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 300 }), (ops) => check(ops, new StringMap<number>())),
    { numRuns: 300, seed: 1 },
  );
});

test('growth, deletions and re-adds over many keys', () => {
  const ops: Op[] = [];
  for (let i = 0; i < 20_000; i++) ops.push(['set', `tx-${i}`, i]);
  for (let i = 0; i < 20_000; i += 3) ops.push(['delete', `tx-${i}`]);
  for (let i = 0; i < 20_000; i += 7) ops.push(['set', `tx-${i}`, -i], ['get', `tx-${i + 1}`]);
  for (let i = 20_000; i < 30_000; i++) ops.push(['set', `tx-${i}`, i], ['delete', `tx-${i - 5000}`]);
  check(ops, new StringMap<number>());
});

test('keys that collide: a new seed once, and still right when the hash cannot help', () => {
  class Colliding extends StringMap<number> {
    constructor(private readonly mod: number) {
      super();
    }
    protected override hash(k: string): number {
      return k.length % this.mod;
    }
  }
  const ops: Op[] = [];
  for (let i = 0; i < 500; i++) ops.push(['set', `c-${i}`, i], ['get', `c-${i >> 1}`]);
  for (let i = 0; i < 500; i += 2) ops.push(['delete', `c-${i}`], ['walk-delete', 3]);
  check(ops, new Colliding(1));
  check(ops, new Colliding(3));
});
