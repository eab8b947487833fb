// The store's transaction table keeps each user's records (ofUser), so that a request about one user
// reads that user's records instead of every transaction in the sandbox. ofUser must always hold
// exactly the user's records in the table: whatever sets, deletes, re-sets, replacements, clears and
// user deletions came before (checked against a filter of the whole table), each once.
import { expect, test } from 'vitest';
import fc from 'fast-check';
import {
  IdSource,
  MemoryStore,
  SandboxClock,
  TransactionTable,
  type TransactionRecord,
} from '../../src/sandbox/store.js';

const USERS = ['u1', 'u2', 'u3'];

function record(id: string, userId: string, seq: number): TransactionRecord {
  return {
    id,
    userId,
    accountId: `${userId}-a`,
    amount: '-1.00',
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

type Op =
  | ['add', number, number]
  | ['delete', number]
  | ['again', number]
  | ['replace', number]
  | ['clear']
  | ['deleteUser', number];

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constant('add' as const), fc.nat(10), fc.nat(2)) },
  { weight: 3, arbitrary: fc.tuple(fc.constant('delete' as const), fc.nat(10)) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('again' as const), fc.nat(10)) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('replace' as const), fc.nat(10)) },
  { weight: 1, arbitrary: fc.tuple(fc.constant('deleteUser' as const), fc.nat(2)) },
  { weight: 1, arbitrary: fc.constant(['clear'] as Op) },
);

const ids = (ts: Iterable<TransactionRecord>) => [...ts].map((t) => t.id).sort();

test('ofUser holds exactly the user records of the table, each once, through any sequence of writes', () => {
  fc.assert(
    fc.property(fc.array(op, { minLength: 20, maxLength: 200 }), (ops) => {
      const store = new MemoryStore(new SandboxClock(), new IdSource(1));
      const table = store.transactions;
      // deleted records by id, to set the same object again
      const dropped = new Map<string, TransactionRecord>();
      let seq = 0;
      for (let i = 0; i < ops.length; i++) {
        const o = ops[i]!;
        const id = `t${o[1] ?? 0}`;
        if (o[0] === 'add' && !table.has(id)) table.set(id, record(id, USERS[o[2]]!, seq++));
        else if (o[0] === 'delete') {
          const t = table.get(id);
          if (t) dropped.set(id, t);
          table.delete(id);
        } else if (o[0] === 'again') {
          const t = dropped.get(id);
          if (t && !table.has(id)) table.set(id, t);
          dropped.delete(id);
        } else if (o[0] === 'replace') {
          const t = table.get(id);
          if (t) table.set(id, { ...t, seq: seq++ });
        } else if (o[0] === 'clear') table.clear();
        else if (o[0] === 'deleteUser') {
          const u = USERS[o[1]]!;
          store.users.set(u, { id: u, market: 'SE', locale: 'sv_SE', created: 0 });
          store.deleteUser(u);
        }
        // not after every write: reading compacts the deletions, and some writes meet them pending
        if (i % 5 !== 4 && i !== ops.length - 1) continue;
        for (const u of USERS) {
          const held = table.ofUser(u);
          expect(ids(held)).toEqual(ids([...table.values()].filter((t) => t.userId === u)));
          expect(held.every((t) => table.get(t.id) === t)).toBe(true);
        }
      }
    }),
    { numRuns: 200 },
  );
});

test('ofUser: the order records came in; a held array keeps its records while they are deleted', () => {
  const table = new TransactionTable();
  for (let i = 0; i < 6; i++) table.set(`t${i}`, record(`t${i}`, i % 2 ? 'u2' : 'u1', i));
  expect(table.ofUser('u1').map((t) => t.id)).toEqual(['t0', 't2', 't4']);
  expect(table.ofUser('u2').map((t) => t.id)).toEqual(['t1', 't3', 't5']);
  expect(table.ofUser('nobody')).toEqual([]);
  // deleting while walking what ofUser gave (as deleteUser does) neither skips nor repeats one
  const walked: string[] = [];
  for (const t of table.ofUser('u1')) {
    walked.push(t.id);
    table.delete(t.id);
  }
  expect(walked).toEqual(['t0', 't2', 't4']);
  expect(table.ofUser('u1')).toEqual([]);
  expect(table.size).toBe(3);
  // a restore builds a new table: it knows its users too
  const restored = TransactionTable.from(table);
  expect(restored.ofUser('u2').map((t) => t.id)).toEqual(['t1', 't3', 't5']);
});
