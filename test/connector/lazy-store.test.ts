// An ingest the fast parser reads whole is stored as its body, its records made when first read
// (src/sandbox/connector/batch.ts). Whatever comes after, the sandbox must answer exactly as if the
// records had been made at the ingest: two sandboxes with the same seed get the same calls, one
// through the fast path (bodies kept) and one through the general path (records made at once: the
// same bodies with an escaped key, which the fast path leaves to the general one), and every answer,
// every stored record (ids included) and every event must be the same. The calls that touch kept
// transactions before anything reads them come first: a duplicate (409), a pending one replaced, a
// delete and its 410, an update by externalId, another user's reads.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { call, userWithAccounts } from './helpers.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5);

interface T {
  externalId: string;
  amount: number | string;
  date: number;
  description: string;
  type: string;
  pending?: boolean;
  payload?: Record<string, unknown>;
}

const tx = (externalId: string, amount: string, day: number, extra: Partial<T> = {}): T => ({
  externalId,
  amount,
  date: T0 + day * DAY,
  description: `Shop ${externalId}`,
  type: 'DEFAULT',
  ...extra,
});

/** An ingest body whose numbers are written as given (amounts as JSON numbers, exactly). */
function body(accounts: Array<[string, string, T[]]>, general: boolean): string {
  const accs = accounts.map(([externalId, balance, ts]) => {
    const list = ts.map((t) => JSON.stringify(t).replace(/"amount":"([^"]*)"/, '"amount":$1'));
    return `{"externalId":${JSON.stringify(externalId)},"balance":${balance},"transactions":[${list.join(',')}]}`;
  });
  // an escaped key: the fast path declines it, the general path ignores the member
  return `{${general ? '"\\u0078":0,' : ''}"type":"REAL_TIME","transactionAccounts":[${accs.join(',')}]}`;
}

let fast: TestEnv;
let general: TestEnv;
beforeAll(async () => {
  [fast, general] = await Promise.all([startTestSandbox({ seed: 7 }), startTestSandbox({ seed: 7 })]);
  for (const env of [fast, general]) {
    await userWithAccounts(env, 'u1', 2);
    await userWithAccounts(env, 'u2', 1);
  }
});
afterAll(async () => {
  await fast?.close();
  await general?.close();
});

/** The same call to both sandboxes (the ingest bodies built for each): the same status and body. */
async function both(method: string, path: string, make: (general: boolean) => string | object) {
  const a = await call(fast, method, path, make(false));
  const b = await call(general, method, path, make(true));
  expect({ status: a.status, text: a.text }).toEqual({ status: b.status, text: b.text });
  return a;
}

const ingest = (user: string, accounts: Array<[string, string, T[]]>) =>
  both('POST', `/connector/users/${user}/transactions`, (g) => body(accounts, g));

/** Records without the times of the two sandboxes' clocks, in seq order. */
function records(env: TestEnv) {
  return [...env.sandbox.store.transactions.values()]
    .map(({ created: _c, updated: _u, ...r }) => r)
    .sort((x, y) => x.seq - y.seq);
}

function events(env: TestEnv) {
  return env.sandbox.events.recent.map((e) => ({
    event: e.event,
    userId: e.userId,
    orderKey: e.orderKey,
    content: JSON.parse(JSON.stringify(e.content)),
  }));
}

describe('an ingest kept as its body answers as one made into records at once', () => {
  test('duplicates, pending replacement, delete, update and reads give the same answers, records and events', async () => {
    const first: Array<[string, string, T[]]> = [
      [
        'acc-0',
        '100.5',
        [
          tx('t1', '-12.50', 0),
          tx('t2', '-3', 1, { pending: true }),
          tx('t3', '0.10', 2, { payload: { TAGS: ['ab', 'c2'], PENDING_TRANSACTION_EXPIRATION_DATE: '2026-02-01' } }),
        ],
      ],
      ['acc-1', '-7', [tx('t4', '1e2', 3, { description: 'Café "☕" \\ done' }), tx('t5', '-0.10', 4)]],
    ];
    expect((await ingest('u1', first)).status).toBe(204);
    expect(fast.sandbox.store.transactions.size).toBe(5);
    // kept as the body in one, made into records in the other
    expect(fast.sandbox.store.transactions.kept).toBe(5);
    expect(general.sandbox.store.transactions.kept).toBe(0);
    // another user's ingest in between, kept too
    expect((await ingest('u2', [['acc-0', '1', [tx('t1', '5', 0), tx('x2', '6', 9)]]])).status).toBe(204);

    // a duplicate of a kept one, among new ones: 409 naming it, nothing stored
    const dup = await ingest('u1', [['acc-0', '0', [tx('t9', '1', 5), tx('t1', '1', 5)]]]);
    expect(dup.status).toBe(409);
    expect(dup.text).toContain('"t1"');

    // a pending kept one replaced by a booked one (the general path in both: it reads as it goes)
    const replace = await ingest('u1', [['acc-0', '0', [tx('t6', '-3', 1, { payload: { PENDING_IDS: ['t2'] } })]]]);
    expect(replace.status).toBe(204);

    // deleted by externalId, then 410 on its ingest
    const del = await both('POST', '/connector/users/u1/transactions/delete', () => ({
      type: 'REAL_TIME',
      transactionAccounts: [{ externalId: 'acc-1', balance: 0, transactions: [{ externalId: 't4' }] }],
    }));
    expect(del.status).toBe(204);
    expect((await ingest('u1', [['acc-1', '0', [tx('t4', '1', 3)]]])).status).toBe(410);

    // kept again, then one of them updated by externalId before anything read them
    expect((await ingest('u1', [['acc-1', '2', [tx('t7', '7.07', 6), tx('t8', '8', 7)]]])).status).toBe(204);
    const upd = await both('PUT', '/connector/users/u1/transactions/t8', () => ({
      type: 'REAL_TIME',
      transactionAccounts: [
        {
          externalId: 'acc-1',
          balance: 3,
          transactions: [{ externalId: 't8', amount: -8.5, date: T0, description: 'changed', type: 'DEFAULT' }],
        },
      ],
    }));
    expect(upd.status).toBe(204);
    // and one kept batch nobody touched before the reads
    expect((await ingest('u2', [['acc-0', '3', [tx('y1', '-1', 2), tx('y2', '-2', 2)]]])).status).toBe(204);

    // u1's were made by the calls above; u2's two ingests not yet: nothing asked about u2
    expect(fast.sandbox.store.transactions.kept).toBe(4);
    expect(fast.sandbox.store.transactions.size).toBe(general.sandbox.store.transactions.size);
    expect(events(fast)).toEqual(events(general));
    const got = records(fast);
    expect(got).toEqual(records(general));
    expect(got.map((r) => r.externalId)).toEqual(['t1', 't3', 't5', 't1', 'x2', 't6', 't7', 't8', 'y1', 'y2']);
    // the record of a kept one is the ingest's: ids under the seed, the amount's text, payload, notes
    const t3 = got.find((r) => r.externalId === 't3')!;
    expect(t3.amount).toBe('0.10');
    expect(t3.notes).toBe('#ab #c2');
    expect(t3.payload).toEqual({ TAGS: ['ab', 'c2'], PENDING_TRANSACTION_EXPIRATION_DATE: '2026-02-01' });
    expect(got.find((r) => r.externalId === 't8')!.amount).toBe('-8.5');
    // the accounts' balances the ingests set
    const accounts = (env: TestEnv) =>
      [...env.sandbox.store.accounts.values()].map((a) => [a.externalId, a.userId, a.balance]);
    expect(accounts(fast)).toEqual(accounts(general));
  });
});
