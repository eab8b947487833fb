// `connector transactions update` and `connector batch` read a transaction's date as `connector push`
// does: an ISO-8601 date is what the push took, so the update of the same transaction, or the same
// transaction in a batch, must take it too.
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

describe('connector transactions update with a numeric date', () => {
  const numeric = (date: string) =>
    `{"transactionAccounts":[{"externalId":"acc-0","balance":1,"transactions":[{"externalId":"u-1","amount":-3,"date":${date},"description":"d","type":"DEFAULT"}]}]}`;
  const update = (date: string) =>
    runCli(['connector', 'transactions', 'update', 'u-1', '--user', 'upd', '--data', numeric(date)], {
      env: env.env,
    });
  const stored = () => [...env.sandbox.store.transactions.values()].find((t) => t.externalId === 'u-1')!;

  test('1700000000 (epoch seconds): exit 2 with the milliseconds to give, not stored as 1970-01-20', async () => {
    const before = stored().bookedDate;
    const r = await update('1700000000');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      '--data:1: transactionAccounts[0].transactions[0].date: is 1700000000, which as epoch milliseconds is before 1973: epoch seconds? Give milliseconds (1700000000000)',
    );
    expect(stored().bookedDate).toBe(before);
    expect(stored().bookedDate).not.toMatch(/^1970/);
  });

  test('20260131 (a date without its dashes): exit 2 suggesting 2026-01-31', async () => {
    const r = await update('20260131');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('a date without its dashes? Write 2026-01-31');
  });

  test('1700000000000 (epoch milliseconds, the wire unit): sent as is, stored as 2023-11-14', async () => {
    const r = await update('1700000000000');
    expect(r.code, r.stderr).toBe(0);
    expect([stored().bookedDate, stored().amount]).toEqual(['2023-11-14', '-3']);
  });
});

const batch = (date: string) =>
  JSON.stringify({
    ingestEntities: [
      {
        entityId: 'e1',
        externalUserId: 'upd',
        container: {
          type: 'REAL_TIME',
          transactionAccounts: [
            {
              externalId: 'acc-0',
              balance: 1,
              transactions: [{ externalId: 'b-1', amount: -3.5, date, description: 'd', type: 'DEFAULT' }],
            },
          ],
        },
      },
    ],
  });

describe('connector batch with an ISO-8601 date', () => {
  test('a date a push takes is not refused: "2026-01-30" is sent as its epoch milliseconds', async () => {
    // before: exit 2, 'entity "e1": transactionAccounts[0].transactions[0].date: must be a whole number of epoch milliseconds'
    const r = await runCli(['connector', 'batch', '--data', batch('2026-01-30'), '-o', 'json'], { env: env.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ entityId: 'e1', httpStatus: 204, response: {} }]);
    const rec = [...env.sandbox.store.transactions.values()].find((t) => t.externalId === 'b-1')!;
    expect([rec.bookedDate, rec.amount]).toEqual(['2026-01-30', '-3.5']);
  });

  test('a date not in the calendar: exit 2 naming the entity and the field, nothing sent', async () => {
    const r = await runCli(['connector', 'batch', '--data', batch('2026-02-30')], { env: env.env });
    expect(r.stderr).toContain(
      '--data:1: entity "e1": transactionAccounts[0].transactions[0].date: is not a date in the calendar',
    );
    expect(r.code).toBe(2);
    const rec = [...env.sandbox.store.transactions.values()].find((t) => t.externalId === 'b-1')!;
    expect(rec.bookedDate).toBe('2026-01-30');
  });

  test('1700000000 (epoch seconds): exit 2 with the milliseconds to give, nothing sent', async () => {
    const r = await runCli(
      ['connector', 'batch', '--data', batch('2026-01-30').replace('"2026-01-30"', '1700000000')],
      {
        env: env.env,
      },
    );
    expect(r.stderr).toContain(
      'entity "e1": transactionAccounts[0].transactions[0].date: is 1700000000, which as epoch milliseconds is before 1973',
    );
    expect(r.code).toBe(2);
    const rec = [...env.sandbox.store.transactions.values()].find((t) => t.externalId === 'b-1')!;
    expect(rec.bookedDate).toBe('2026-01-30');
  });
});
