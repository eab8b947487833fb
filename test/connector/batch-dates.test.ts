// `connector batch` reads a transaction's date as `connector push` (and `connector transactions
// update`) do: an ISO-8601 date is taken, a number that looks like epoch seconds is exit 2 with the
// push's hint instead of a 1970 transaction and exit 0.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { userWithAccounts } from './helpers.js';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestSandbox();
  await userWithAccounts(env, 'bd', 1);
});
afterAll(async () => env.close());

/** A batch of one entity whose one transaction `id` has `date` (a JSON literal). */
const batch = (id: string, date: string) =>
  `{"ingestEntities":[{"entityId":"e-${id}","externalUserId":"bd","container":{"type":"REAL_TIME","transactionAccounts":[{"externalId":"acc-0","balance":1,"transactions":[{"externalId":"${id}","amount":-1.25,"date":${date},"description":"d","type":"DEFAULT"}]}]}}]}`;
const send = (id: string, date: string) =>
  runCli(['connector', 'batch', '--data', batch(id, date), '-o', 'json'], { env: env.env });
const stored = (id: string) => [...env.sandbox.store.transactions.values()].find((t) => t.externalId === id);

describe('connector batch: transaction dates as connector push reads them', () => {
  test('"2026-01-31" (ISO-8601, as push takes it): sent as its epoch milliseconds, stored as that day', async () => {
    const r = await send('iso', '"2026-01-31"');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ entityId: 'e-iso', httpStatus: 204 })]);
    expect([stored('iso')?.bookedDate, stored('iso')?.amount]).toEqual(['2026-01-31', '-1.25']);
  });

  test('"2026-01-31T23:30:00+02:00" (a date-time with an offset): stored as its UTC day', async () => {
    const r = await send('iso-t', '"2026-01-31T23:30:00+02:00"');
    expect(r.code, r.stderr).toBe(0);
    expect(stored('iso-t')?.bookedDate).toBe('2026-01-31');
  });

  test('1700000000 (epoch seconds): exit 2 with the milliseconds to give, nothing stored', async () => {
    const r = await send('secs', '1700000000');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      '--data:1: entity "e-secs": transactionAccounts[0].transactions[0].date: is 1700000000, which as epoch milliseconds is before 1973: epoch seconds? Give milliseconds (1700000000000)',
    );
    expect(r.stdout).toBe('');
    expect(stored('secs')).toBeUndefined();
  });

  test('20260131 (a date without its dashes): exit 2 suggesting 2026-01-31, nothing stored', async () => {
    const r = await send('compact', '20260131');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('a date without its dashes? Write 2026-01-31');
    expect(stored('compact')).toBeUndefined();
  });

  test('"2026-02-30" (not in the calendar): exit 2 naming the entity and the field', async () => {
    const r = await send('feb', '"2026-02-30"');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      'entity "e-feb": transactionAccounts[0].transactions[0].date: is not a date in the calendar: "2026-02-30"',
    );
    expect(stored('feb')).toBeUndefined();
  });

  test('1700000000000 (epoch milliseconds, the wire unit): sent as is, stored as 2023-11-14', async () => {
    const r = await send('ms', '1700000000000');
    expect(r.code, r.stderr).toBe(0);
    expect(stored('ms')?.bookedDate).toBe('2023-11-14');
  });
});
