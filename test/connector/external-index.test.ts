// The connector's externalId index behaves as the Map it replaced, for every operation the sandbox
// uses: get, has, set, delete, size and iteration in insertion order (also while it changes).
import { expect, test } from 'vitest';
import fc from 'fast-check';
import { ExternalIdIndex } from '../../src/sandbox/connector/external-index.js';

type Op =
  ['set', string, number] | ['delete', string] | ['get', string] | ['walk-delete', number] | ['walk-set', number];

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
);

/** Runs the same operations on a Map and an index and compares them after each. */
function check(ops: Op[], index: ExternalIdIndex<number>): void {
  const map = new Map<string, number>();
  ops.forEach((o, at) => {
    if (o[0] === 'set') {
      expect(index.set(o[1], o[2])).toBe(index);
      map.set(o[1], o[2]);
    } else if (o[0] === 'delete') expect(index.delete(o[1])).toBe(map.delete(o[1]));
    else if (o[0] === 'get') {
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
}

test('random operations: the same answers and order as a Map', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 300 }), (ops) => check(ops, new ExternalIdIndex<number>())),
    { numRuns: 300, seed: 1 },
  );
});

test('growth, deletions and re-adds over many keys', () => {
  const ops: Op[] = [];
  for (let i = 0; i < 20_000; i++) ops.push(['set', `tx-${i}`, i]);
  for (let i = 0; i < 20_000; i += 3) ops.push(['delete', `tx-${i}`]);
  for (let i = 0; i < 20_000; i += 7) ops.push(['set', `tx-${i}`, -i], ['get', `tx-${i + 1}`]);
  for (let i = 20_000; i < 30_000; i++) ops.push(['set', `tx-${i}`, i], ['delete', `tx-${i - 5000}`]);
  check(ops, new ExternalIdIndex<number>());
});

test('keys that collide: a new seed once, and still right when the hash cannot help', () => {
  class Colliding extends ExternalIdIndex<number> {
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
