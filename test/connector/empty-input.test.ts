// An input with nothing in it is exit 2, not "pushed 0" with exit 0: an empty export is far more
// often a failed one than a day without data, and a script would carry on as if all went in.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { userWithAccounts } from './helpers.js';

let env: TestEnv;
let dir: string;
beforeAll(async () => {
  env = await startTestSandbox();
  dir = tempDir();
  await userWithAccounts(env, 'nothing', 1);
});
afterAll(async () => env.close());

const file = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('connector push and accounts push of an input with nothing in it', () => {
  for (const [name, text] of [
    ['empty.ndjson', ''],
    ['blank.ndjson', '\n\n'],
    ['header-only.csv', 'account,externalId,amount,date,description,type\n'],
    [
      'no-transactions.json',
      '{"type":"BATCH","transactionAccounts":[{"externalId":"acc-0","balance":5,"transactions":[]}]}',
    ],
  ] as const)
    test(`push ${name}: exit 2 naming the file, with and without --dry-run`, async () => {
      const f = file(name, text);
      for (const extra of [[], ['--dry-run']]) {
        const r = await runCli(['connector', 'push', '--user', 'nothing', '--file', f, ...extra], { env: env.env });
        expect(r.stderr).toContain(`${f} holds no transactions: nothing to push`);
        expect(r.code).toBe(2);
      }
    });

  test("--report of an empty input says nothing was pushed and why; an earlier run's report does not stay", async () => {
    const report = join(dir, 'report.json');
    const good = file(
      'one.ndjson',
      '{"account":"acc-0","externalId":"r-1","amount":-12.50,"date":"2026-01-31","description":"Coffee","type":"DEFAULT","balance":987.50}\n',
    );
    const first = await runCli(['connector', 'push', '--user', 'nothing', '--file', good, '--report', report], {
      env: env.env,
    });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8')).summary).toMatchObject({ transactions: 1, delivered: 1 });
    const empty = file('empty-again.ndjson', '');
    for (const extra of [[], ['--dry-run']]) {
      const r = await runCli(
        ['connector', 'push', '--user', 'nothing', '--file', empty, '--report', report, ...extra],
        {
          env: env.env,
        },
      );
      expect(r.code).toBe(2);
      const written = JSON.parse(readFileSync(report, 'utf8'));
      expect(written.summary).toMatchObject({ file: empty, transactions: 0, sent: 0, delivered: 0, chunks: 0 });
      expect(written.error).toBe(`${empty} holds no transactions: nothing to push`);
      expect(written.chunks).toEqual([]);
    }
    // an input refused before anything could be reported: no report, rather than the last run's
    await runCli(['connector', 'push', '--user', 'nothing', '--file', good, '--report', report], { env: env.env });
    expect(existsSync(report)).toBe(true);
    const bad = file(
      'no-balance.ndjson',
      '{"account":"acc-0","externalId":"r-2","amount":1,"date":"2026-01-31","description":"x","type":"DEFAULT"}\n',
    );
    const r = await runCli(['connector', 'push', '--user', 'nothing', '--file', bad, '--report', report], {
      env: env.env,
    });
    expect(r.code).toBe(2);
    expect(existsSync(report)).toBe(false);
  });

  test('accounts push of an empty ndjson file or an empty list: exit 2, nothing sent', async () => {
    const before = env.sandbox.store.accounts.size;
    const f = file('accounts.ndjson', '');
    const r = await runCli(['connector', 'accounts', 'push', '--user', 'nothing', '--file', f], { env: env.env });
    expect(r.stderr).toContain(`${f} holds no accounts: nothing to push`);
    expect(r.code).toBe(2);
    const d = await runCli(['connector', 'accounts', 'push', '--user', 'nothing', '--data', '{"accounts":[]}'], {
      env: env.env,
    });
    expect(d.stderr).toContain('--data holds no accounts');
    expect(d.code).toBe(2);
    expect(env.sandbox.store.accounts.size).toBe(before);
  });

  test('a file whose every line is rejected with --skip-invalid still exits 0 (the rejects file says why)', async () => {
    const f = file('all-bad.ndjson', '{"account":"acc-0"}\n');
    const rejects = join(dir, 'rejects.ndjson');
    const r = await runCli(['connector', 'push', '--user', 'nothing', '--file', f, '--skip-invalid', rejects], {
      env: env.env,
    });
    expect(r.stderr).toContain('rejected 1');
    expect(r.code).toBe(0);
  });
});
