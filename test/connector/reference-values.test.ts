// Values the vendor's current reference allows on the connector API and the spec did not list: an
// account of type DUMMY and a transaction of type TRAINING. bankctl's own checks must not refuse a
// body written to the reference; the sandbox takes them and the read-back shows them.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { call, writeNdjson, type Tx } from './helpers.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

describe("the reference's connector values", () => {
  test('an account of type DUMMY and transactions of type TRAINING: pushed, stored and verified', async () => {
    const env = { ...t.env, BANKCTL_CONFIG_DIR: tempDir() };
    const u = await call(t, 'POST', '/connector/users', { externalId: 'ref1', token: 'ref1-token', market: 'SE' });
    expect(u.status).toBe(204);
    const accounts = JSON.stringify({
      accounts: [{ externalId: 'acc-0', name: 'Dummy', number: '1000', balance: 0, type: 'DUMMY' }],
    });
    const a = await spawnCli(['connector', 'accounts', 'push', '--user', 'ref1', '--data', accounts], { env });
    expect(a.code, a.stderr).toBe(0);
    const txs = [0, 1, 2].map((i) => ({
      account: 'acc-0',
      externalId: `tr-${i}`,
      amount: `-${i + 1}.25`,
      date: 1_700_000_000_000 + i * 60_000,
      description: `Course ${i}`,
      type: 'TRAINING',
    }));
    const file = writeNdjson(tempDir(), 'training.ndjson', txs);
    const pushed = await spawnCli(['connector', 'push', '--user', 'ref1', '--file', file, '-q'], { env });
    expect(pushed.code, pushed.stderr).toBe(0);
    const verified = await spawnCli(['connector', 'verify', '--user', 'ref1', '--file', file, '-o', 'json'], { env });
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toEqual([
      expect.objectContaining({ account: 'acc-0', expectedCount: 3, actualCount: 3, expectedSum: '-6.75', ok: true }),
    ]);
    // the v2 read keeps the connector's own type code
    const token = await spawnCli(
      ['connector', 'token', '--user', 'ref1', '--scope', 'transactions:read,accounts:read'],
      { env },
    );
    expect(token.code, token.stderr).toBe(0);
    const bearer = token.stdout.trim();
    const page = await fetch(`${t.sandbox.baseUrl}/data/v2/transactions`, {
      headers: { authorization: `Bearer ${bearer}` },
    }).then((r) => r.json() as Promise<{ transactions: Array<{ types: unknown }> }>);
    // and the v2 account names the connector's externalId, as the reference has it
    const accountsRead = await spawnCli(['accounts', 'list', '--v2', '-o', 'json', '--token', bearer], { env });
    expect(accountsRead.code, accountsRead.stderr).toBe(0);
    expect(JSON.parse(accountsRead.stdout)).toEqual([expect.objectContaining({ externalAccountId: 'acc-0' })]);
    expect(page.transactions.map((x) => x.types)).toEqual(
      Array(3).fill({ financialInstitutionTypeCode: 'TRAINING', type: 'DEFAULT' }),
    );
  });

  test("connector transactions update names the account by the reference's tinkId", async () => {
    const env = { ...t.env, BANKCTL_CONFIG_DIR: tempDir() };
    const rec = [...t.sandbox.store.transactions.values()].find((x) => x.externalId === 'tr-0')!;
    const body = {
      type: 'REAL_TIME',
      transactionAccounts: [
        {
          tinkId: rec.accountId,
          balance: 0,
          transactions: [
            { externalId: 'tr-0', amount: -9.5, date: 1_700_000_000_000, description: 'Course 0', type: 'TRAINING' },
          ],
        },
      ],
    };
    const r = await spawnCli(
      ['connector', 'transactions', 'update', 'tr-0', '--user', 'ref1', '--data', JSON.stringify(body)],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(rec.amount).toBe('-9.5');
  });

  test('merchantName, merchantCategoryCode and counterparties are kept and read back in data v2', async () => {
    const env = { ...t.env, BANKCTL_CONFIG_DIR: tempDir() };
    const file = writeNdjson(tempDir(), 'merchants.ndjson', [
      {
        account: 'acc-0',
        externalId: 'm-1',
        amount: '-45.10',
        date: 1_700_100_000_000,
        description: 'SAINSBURYS 1234',
        type: 'PAYMENT',
        merchantName: 'Sainsburys',
        merchantCategoryCode: '5411',
        counterparties: { payee: { name: 'Sainsburys Ltd' } },
      } as Tx,
    ]);
    const pushed = await spawnCli(['connector', 'push', '--user', 'ref1', '--file', file, '-q'], { env });
    expect(pushed.code, pushed.stderr).toBe(0);
    const token = await spawnCli(['connector', 'token', '--user', 'ref1', '--scope', 'transactions:read'], { env });
    const list = await spawnCli(['transactions', 'list', '--all', '-o', 'json', '--token', token.stdout.trim()], {
      env,
    });
    expect(list.code, list.stderr).toBe(0);
    const m = (JSON.parse(list.stdout) as Array<Record<string, unknown>>).find(
      (x) => (x.identifiers as { providerTransactionId?: string }).providerTransactionId === 'm-1',
    );
    // before, the sandbox dropped all three: merchantInformation came back empty, no counterparties
    expect(m).toMatchObject({
      merchantInformation: { merchantName: 'Sainsburys', merchantCategoryCode: '5411' },
      counterparties: { payee: { name: 'Sainsburys Ltd' } },
    });
  });
});
