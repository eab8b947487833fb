// `connector transactions update` reads a transaction's date as `connector push` does: an ISO-8601
// date is what the push took, so the update of the same transaction must take it too.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { call, userWithAccounts } from './helpers.js';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestSandbox();
  await userWithAccounts(env, 'upd', 1);
  const ingest = await call(env, 'POST', '/connector/users/upd/transactions', {
    type: 'REAL_TIME',
    transactionAccounts: [
      {
        externalId: 'acc-0',
        balance: 1,
        transactions: [{ externalId: 'u-1', amount: -1, date: 1_700_000_000_000, description: 'd', type: 'DEFAULT' }],
      },
    ],
  });
  expect(ingest.status).toBe(204);
});
afterAll(async () => env.close());

const body = (date: string) =>
  JSON.stringify({
    transactionAccounts: [
      {
        externalId: 'acc-0',
        balance: 1,
        transactions: [{ externalId: 'u-1', amount: -2.5, date, description: 'd', type: 'DEFAULT' }],
      },
    ],
  });

describe('connector transactions update with an ISO-8601 date', () => {
  test('"2026-01-30" is sent as its epoch milliseconds and stored as that day', async () => {
    const r = await runCli(
      ['connector', 'transactions', 'update', 'u-1', '--user', 'upd', '--data', body('2026-01-30')],
      {
        env: env.env,
      },
    );
    expect(r.stderr).toContain('updated transaction u-1');
    expect(r.code).toBe(0);
    const rec = [...env.sandbox.store.transactions.values()].find((t) => t.externalId === 'u-1')!;
    expect([rec.bookedDate, rec.amount]).toEqual(['2026-01-30', '-2.5']);
  });

  test('a date not in the calendar: exit 2 naming the field, nothing sent', async () => {
    const r = await runCli(
      ['connector', 'transactions', 'update', 'u-1', '--user', 'upd', '--data', body('2026-02-30')],
      {
        env: env.env,
      },
    );
    expect(r.stderr).toContain('--data:1: transactionAccounts[0].transactions[0].date: is not a date in the calendar');
    expect(r.code).toBe(2);
    const rec = [...env.sandbox.store.transactions.values()].find((t) => t.externalId === 'u-1')!;
    expect(rec.bookedDate).toBe('2026-01-30');
  });
});
