// A TransactionTable holds records and batches kept until read (addBatch: a connector ingest kept as
// its body). Whatever is asked, it must answer as a table that got the batch's records when the
// batch came: checked against such a twin through random sequences of records and batches of three
// users, deletes, replacements, look-ups (hits and misses), per-user and whole-table reads, clears.
// And the StringMap's lazy entries (the connector's externalId index holds a batch's transactions
// so) must answer as a Map does.
import { expect, test } from 'vitest';
import fc from 'fast-check';
import { TransactionTable, type PendingBatch, type TransactionRecord } from '../../src/sandbox/store.js';
import { StringMap } from '../../src/sandbox/string-map.js';

const USERS = ['u1', 'u2', 'u3'];

function record(id: string, userId: string, seq: number): TransactionRecord {
  return {
    id,
    userId,
    accountId: `${userId}-a`,
    amount: `-${seq}.00`,
    currencyCode: 'SEK',
    bookedDate: '2026-01-01',
    valueDate: '2026-01-01',
    description: id,
    originalDescription: id,
    categoryId: 'c',
    status: 'BOOKED',
    type: 'DEFAULT',
    seq,
    created: 0,
    updated: 0,
  };
}

/** A batch whose records are copies of the given ones, made once, when the table asks. */
class Batch implements PendingBatch {
  made = 0;
  taken = () => undefined;
  constructor(
    readonly userId: string,
    private readonly recs: TransactionRecord[],
  ) {}
  get count() {
    return this.recs.length;
  }
  private out?: TransactionRecord[];
  materialize() {
    if (!this.out) {
      this.made++;
      this.out = this.recs.map((r) => ({ ...r }));
    }
    return this.out;
  }
}

type Op =
  | ['add', number]
  | ['batch', number, number]
  | ['delete', number]
  | ['get', number]
  | ['replace', number]
  | ['ofUser', number]
  | ['walk']
  | ['size']
  | ['clear'];

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constant('add' as const), fc.nat(2)) },
  { weight: 4, arbitrary: fc.tuple(fc.constant('batch' as const), fc.nat(2), fc.integer({ min: 0, max: 4 })) },
  { weight: 3, arbitrary: fc.tuple(fc.constant('delete' as const), fc.nat(40)) },
  { weight: 3, arbitrary: fc.tuple(fc.constant('get' as const), fc.nat(40)) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('replace' as const), fc.nat(40)) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('ofUser' as const), fc.nat(2)) },
  { weight: 1, arbitrary: fc.constant(['walk'] as Op) },
  { weight: 2, arbitrary: fc.constant(['size'] as Op) },
  { weight: 1, arbitrary: fc.constant(['clear'] as Op) },
);

const plain = (t: TransactionRecord | undefined) => (t ? { ...t } : undefined);
const perUser = (ts: Iterable<TransactionRecord>) => {
  const by: Record<string, string[]> = {};
  for (const t of ts) (by[t.userId] ??= []).push(t.id);
  return by;
};

test('a table with kept batches answers as one that got their records when they came', () => {
  fc.assert(
    fc.property(fc.array(op, { minLength: 10, maxLength: 120 }), (ops) => {
      const lazy = new TransactionTable();
      const twin = new TransactionTable();
      const batches: Batch[] = [];
      let next = 0;
      for (const o of ops) {
        const id = `t${o[1] ?? 0}`;
        switch (o[0]) {
          case 'add': {
            const r = record(`t${next}`, USERS[o[1]]!, next++);
            lazy.set(r.id, r);
            twin.set(r.id, { ...r });
            break;
          }
          case 'batch': {
            const recs = Array.from({ length: o[2] }, () => record(`t${next}`, USERS[o[1]]!, next++));
            const b = new Batch(USERS[o[1]]!, recs);
            batches.push(b);
            lazy.addBatch(b);
            for (const r of recs) twin.set(r.id, { ...r });
            break;
          }
          case 'delete':
            expect(lazy.delete(id)).toBe(twin.delete(id));
            break;
          case 'get':
            expect(plain(lazy.get(id))).toEqual(plain(twin.get(id)));
            expect(lazy.has(id)).toBe(twin.has(id));
            break;
          case 'replace': {
            // in place, as the connector's update does (get, change, set again)
            const a = lazy.get(id);
            const b = twin.get(id);
            expect(plain(a)).toEqual(plain(b));
            if (a && b) {
              a.amount = b.amount = '1.00';
              lazy.set(id, a);
              twin.set(id, b);
            }
            break;
          }
          case 'ofUser': {
            const u = USERS[o[1]]!;
            expect(lazy.ofUser(u).map(plain)).toEqual(twin.ofUser(u).map(plain));
            break;
          }
          case 'walk':
            // between users the order may differ; each user's is the order they came
            expect(perUser(lazy.values())).toEqual(perUser(twin.values()));
            expect(lazy.kept).toBe(0);
            break;
          case 'size':
            expect(lazy.size).toBe(twin.size);
            break;
          case 'clear':
            lazy.clear();
            twin.clear();
            break;
        }
        expect(lazy.size).toBe(twin.size);
      }
      expect(perUser(lazy.values())).toEqual(perUser(twin.values()));
      // each batch made once at most
      expect(batches.every((b) => b.made <= 1)).toBe(true);
    }),
    { numRuns: 300 },
  );
});

test('a batch nobody asks about is never made; a user asked about makes only its own', () => {
  const t = new TransactionTable();
  const b1 = new Batch('u1', [record('a', 'u1', 1), record('b', 'u1', 2)]);
  const b2 = new Batch('u2', [record('c', 'u2', 3)]);
  t.addBatch(b1);
  t.addBatch(b2);
  expect(t.size).toBe(3);
  expect(t.kept).toBe(3);
  expect(t.ofUser('u2').map((r) => r.id)).toEqual(['c']);
  expect([b1.made, b2.made]).toEqual([0, 1]);
  // a hit among the made records makes nothing more; a miss makes everything (it could be anywhere)
  expect(t.get('c')?.id).toBe('c');
  expect(b1.made).toBe(0);
  expect(t.get('zz')).toBeUndefined();
  expect(b1.made).toBe(1);
  expect(t.kept).toBe(0);
});

/** A StringMap whose lazy entries name keys and values in arrays (as the externalId index does batches). */
class Lazy extends StringMap<string> {
  keysOf: string[] = [];
  resolves = 0;
  addLazy(k: string): void {
    this.keysOf.push(k);
    this.putLazy(k, undefined, this.keysOf.length - 1);
  }
  protected override lazyKey(ref: number): string {
    return this.keysOf[ref]!;
  }
  protected override resolveLazy(): void {
    this.resolves++;
    this.replaceLazy((ref) => [this.keysOf[ref]!, `v:${this.keysOf[ref]}`]);
  }
}

test("StringMap's lazy entries answer as a Map that got them at once", () => {
  const key = fc.integer({ min: 0, max: 30 }).map((n) => `k${n}`);
  const mapOp = fc.oneof(
    fc.tuple(fc.constant('lazy' as const), key),
    fc.tuple(fc.constant('set' as const), key),
    fc.tuple(fc.constant('get' as const), key),
    fc.tuple(fc.constant('delete' as const), key),
    fc.tuple(fc.constant('walk' as const), key),
  );
  fc.assert(
    fc.property(fc.array(mapOp, { maxLength: 150 }), (ops) => {
      const m = new Lazy();
      const model = new Map<string, string>();
      for (const [kind, k] of ops) {
        if (kind === 'lazy') {
          if (model.has(k)) continue;
          m.addLazy(k);
          model.set(k, `v:${k}`);
        } else if (kind === 'set') {
          m.set(k, `s:${k}`);
          model.set(k, `s:${k}`);
        } else if (kind === 'get') {
          expect(m.get(k)).toBe(model.get(k));
          expect(m.has(k)).toBe(model.has(k));
        } else if (kind === 'delete') expect(m.delete(k)).toBe(model.delete(k));
        else expect([...m]).toEqual([...model]);
        expect(m.size).toBe(model.size);
      }
      expect([...m.keys()]).toEqual([...model.keys()]);
      expect([...m.values()]).toEqual([...model.values()]);
    }),
    { numRuns: 300 },
  );
  // a look-up that misses, or hits a made entry, and a delete make nothing
  const m = new Lazy();
  m.addLazy('a');
  m.addLazy('d');
  m.set('b', 'x');
  expect([m.has('a'), m.get('b'), m.get('c'), m.delete('d')]).toEqual([true, 'x', undefined, true]);
  expect(m.resolves).toBe(0);
  expect(m.get('a')).toBe('v:a');
  expect(m.resolves).toBe(1);
  // once all are made, walks make nothing more
  expect([...m.keys()]).toEqual(['a', 'b']);
  expect(m.resolves).toBe(1);
});
