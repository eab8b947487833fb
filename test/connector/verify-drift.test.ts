// `connector verify` on drift: exit 9, and which transactions differ (not only which account).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { call, makeTxs, userWithAccounts, writeNdjson } from './helpers.js';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestSandbox();
});
afterAll(async () => env.close());

describe('connector verify names the transactions that differ', () => {
  test('one amount changed on the service, one deleted, one added there: exit 9 naming each', async () => {
    const user = 'drift';
    await userWithAccounts(env, user, 2);
    const txs = makeTxs(3000, { accounts: 2 });
    const dir = tempDir();
    const file = writeNdjson(dir, 'drift.ndjson', txs);
    expect((await runCli(['connector', 'push', '--user', user, '--file', file], { env: env.env })).code).toBe(0);
    expect((await runCli(['connector', 'verify', '--user', user, '--file', file], { env: env.env })).code).toBe(0);

    const changed = txs[1234]!;
    const rec = [...env.sandbox.store.transactions.values()].find((t) => t.externalId === changed.externalId)!;
    rec.amount = `${changed.amount}1`;
    const gone = txs[2000]!;
    const del = await call(env, 'POST', `/connector/users/${user}/transactions/delete`, {
      type: 'REAL_TIME',
      transactionAccounts: [{ externalId: gone.account, balance: 0, transactions: [{ externalId: gone.externalId }] }],
    });
    expect(del.status).toBe(204);

    const r = await runCli(['connector', 'verify', '--user', user, '--file', file, '-o', 'json'], { env: env.env });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('verify: 2 transaction(s) differ');
    expect(r.stderr).toContain(
      `${changed.account} ${changed.externalId}: amount ${changed.amount} in the file, ${changed.amount}1 on the service`,
    );
    expect(r.stderr).toContain(`${gone.account} ${gone.externalId}: ${gone.amount} in the file, not on the service`);
    // the error line names one of them
    expect(r.stderr).toMatch(/error: verify: 1 of 2 account\(s\) differ .*; acc-\d tx-\d+: /);

    // one on the service that the file does not have
    const more = await call(env, 'POST', `/connector/users/${user}/transactions`, {
      type: 'REAL_TIME',
      transactionAccounts: [
        {
          externalId: 'acc-0',
          balance: 0,
          transactions: [
            { externalId: 'stray-1', amount: 9.99, date: txs[10]!.date, description: 's', type: 'DEFAULT' },
          ],
        },
      ],
    });
    expect(more.status).toBe(204);
    const r2 = await runCli(['connector', 'verify', '--user', user, '--file', file], { env: env.env });
    expect(r2.code).toBe(9);
    expect(r2.stderr).toContain('acc-0 stray-1: 9.99 on the service, not in the file');
  });
});
