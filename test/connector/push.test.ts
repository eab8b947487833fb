import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { makeTxs, userWithAccounts, writeNdjson } from './helpers.js';

let env: TestEnv;
let dir: string;
beforeAll(async () => {
  env = await startTestSandbox();
  dir = tempDir();
});
afterAll(async () => env.close());

function userTxs(user: string) {
  const u = env.sandbox.store.userByExternalId(user)!;
  return [...env.sandbox.store.transactions.values()].filter((t) => t.userId === u.id);
}

describe('chunk boundaries', () => {
  for (const [n, accounts, chunks] of [
    [2499, 1, [2499]],
    [2500, 1, [2500]],
    [2501, 1, [2500, 1]],
    [6000, 3, [2500, 2500, 1000]],
  ] as const) {
    test(`${n} transactions over ${accounts} account(s) go in chunks of ${chunks.join(', ')}`, async () => {
      const user = `chunks-${n}-${accounts}`;
      await userWithAccounts(env, user, accounts);
      const txs = makeTxs(n, { accounts });
      const balances = Object.fromEntries(Array.from({ length: accounts }, (_, i) => [`acc-${i}`, `${i + 1}00.5${i}`]));
      const file = writeNdjson(dir, `${user}.ndjson`, txs, balances);
      const report = join(dir, `${user}.report.json`);
      const r = await runCli(['connector', 'push', '--user', user, '--file', file, '--report', report], {
        env: env.env,
      });
      expect(r.stderr).toContain(`delivered ${n}`);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      const rep = JSON.parse(readFileSync(report, 'utf8'));
      expect(rep.chunks.map((c: { transactions: number }) => c.transactions)).toEqual(chunks);
      expect(rep.summary).toMatchObject({ transactions: n, delivered: n, duplicates: 0, rejected: 0 });
      const stored = userTxs(user);
      expect(stored).toHaveLength(n);
      // every account's balance arrived exactly as written
      const u = env.sandbox.store.userByExternalId(user)!;
      for (const a of env.sandbox.store.accounts.values())
        if (a.userId === u.id) expect(a.balance).toBe(balances[a.externalId!]);
    });
  }
});

describe('idempotent pushes', () => {
  test('a file half of which the service already holds: the new half is delivered, the rest counted as duplicates, exit 0', async () => {
    const user = 'dupes';
    await userWithAccounts(env, user, 2);
    const all = makeTxs(5000, { accounts: 2 });
    // every other transaction is there already: each chunk gets a 409 and is split
    const first = writeNdjson(
      dir,
      'dupes-first.ndjson',
      all.filter((_, i) => i % 2 === 0),
    );
    expect((await runCli(['connector', 'push', '--user', user, '--file', first], { env: env.env })).code).toBe(0);
    const file = writeNdjson(dir, 'dupes-all.ndjson', all);
    const report = join(dir, 'dupes.report.json');
    const r = await runCli(['connector', 'push', '--user', user, '--file', file, '--report', report], { env: env.env });
    expect(r.code).toBe(0);
    const rep = JSON.parse(readFileSync(report, 'utf8'));
    expect(rep.summary).toMatchObject({ transactions: 5000, delivered: 2500, duplicates: 2500 });
    // acc-0 held the even ones (all of it), acc-1 none: each chunk mixed both and was split
    expect(rep.accounts).toEqual([
      expect.objectContaining({ externalId: 'acc-0', delivered: 0, duplicates: 2500, balanceSent: false }),
      expect.objectContaining({ externalId: 'acc-1', delivered: 2500, duplicates: 0, balanceSent: true }),
    ]);
    // acc-0's balance went with no request the service took: said, not passed off as applied
    expect(r.stderr).toContain('warning: the balance of account acc-0 (0) was not sent');
    expect(r.stderr).not.toContain('account acc-1');
    expect(rep.chunks.every((c: { requests: number }) => c.requests === 2)).toBe(true);
    expect(userTxs(user)).toHaveLength(5000);
    // pushing it all again sends nothing new and still succeeds
    const again = await runCli(['connector', 'push', '--user', user, '--file', file, '--report', report], {
      env: env.env,
    });
    expect(again.code).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8')).summary).toMatchObject({ delivered: 0, duplicates: 5000 });
    expect(userTxs(user)).toHaveLength(5000);
  });

  test('retries 429, 5xx and dropped connections, and every transaction lands exactly once', async () => {
    const faulty = await startTestSandbox({
      faults: { rate: 0.35, kinds: ['429', '500', '503', 'reset'], seed: 11, retryAfterS: 0 },
    });
    try {
      const user = 'faults';
      // set-up without faults would be nicer, but the admin calls retry too: use the CLI
      const e = { ...faulty.env, BANKCTL_RETRIES: '10' };
      let made = await runCli(
        ['connector', 'users', 'create', '--external-id', user, '--user-token', 't', '--market', 'SE'],
        { env: e },
      );
      expect(made.code).toBe(0);
      const accFile = join(dir, 'faults-accounts.json');
      require_write(
        accFile,
        JSON.stringify({
          accounts: [0, 1].map((i) => ({
            externalId: `acc-${i}`,
            name: 'A',
            number: '1',
            balance: 1,
            type: 'CHECKING',
          })),
        }),
      );
      made = await runCli(['connector', 'accounts', 'push', '--user', user, '--file', accFile], { env: e });
      expect(made.code, made.stderr).toBe(0);
      const txs = makeTxs(12_000, { accounts: 2 });
      const file = writeNdjson(dir, 'faults.ndjson', txs);
      const report = join(dir, 'faults.report.json');
      const pushes = () =>
        faulty.sandbox.context
          .bench!.requests.entries()
          .entries.filter((x) => x.method === 'POST' && x.path === `/connector/users/${user}/transactions`);
      const before = pushes().length;
      const r = await runCli(
        ['connector', 'push', '--user', user, '--file', file, '--concurrency', '3', '--report', report],
        { env: e, context: { sleep: async () => undefined } },
      );
      expect(r.code, r.stderr).toBe(0);
      const injected = Object.values(faulty.sandbox.faultCounts).reduce((a, b) => a + b, 0);
      expect(injected).toBeGreaterThan(0);
      // the report counts every HTTP request the push made, retries included: what the service saw
      const rep = JSON.parse(readFileSync(report, 'utf8'));
      expect(rep.summary.requests).toBe(pushes().length - before);
      expect(rep.summary.requests).toBeGreaterThan(rep.summary.chunks);
      expect(rep.chunks.reduce((n: number, c: { requests: number }) => n + c.requests, 0)).toBe(rep.summary.requests);
      const u = faulty.sandbox.store.userByExternalId(user)!;
      const ids = [...faulty.sandbox.store.transactions.values()]
        .filter((t) => t.userId === u.id)
        .map((t) => t.externalId);
      expect(ids).toHaveLength(12_000);
      expect(new Set(ids).size).toBe(12_000);
    } finally {
      await faulty.close();
    }
  });
});

function require_write(file: string, text: string): void {
  writeFileSync(file, text);
}

describe('a service that does not say which transactions exist', () => {
  test('409 chunks are halved until each new transaction is delivered', async () => {
    const { createServer } = await import('node:http');
    const held = new Set<string>();
    let requests = 0;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        requests++;
        const c = JSON.parse(body) as { transactionAccounts: Array<{ transactions: Array<{ externalId: string }> }> };
        const ids = c.transactionAccounts.flatMap((a) => a.transactions.map((t) => t.externalId));
        if (ids.some((x) => held.has(x))) {
          res.writeHead(409, { 'content-type': 'text/plain' }).end('transaction exists');
          return;
        }
        for (const x of ids) held.add(x);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const txs = makeTxs(100);
      for (const i of [3, 50, 51, 97]) held.add(txs[i]!.externalId);
      const file = writeNdjson(dir, 'halves.ndjson', txs);
      const report = join(dir, 'halves.report.json');
      const r = await runCli(['connector', 'push', '--user', 'x', '--file', file, '--report', report], {
        env: { ...env.env, BANKCTL_BASE_URL: `http://127.0.0.1:${port}` },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(held.size).toBe(100);
      expect(JSON.parse(readFileSync(report, 'utf8')).summary).toMatchObject({ delivered: 96, duplicates: 4 });
      expect(requests).toBeGreaterThan(4);
    } finally {
      server.close();
    }
  });
});

describe('a push that fails part-way', () => {
  test('the summary says it failed and how much was answered for, not "pushed"', async () => {
    const { createServer } = await import('node:http');
    let n = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        // the first chunk lands; the service fails on the second for good
        if (n++ === 0) res.writeHead(204).end();
        else res.writeHead(500, { 'content-type': 'application/json' }).end('{"errorMessage":"down"}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const file = writeNdjson(dir, 'partway.ndjson', makeTxs(5000));
      const r = await runCli(['connector', 'push', '--user', 'x', '--file', file, '--concurrency', '1'], {
        env: {
          ...env.env,
          BANKCTL_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
          BANKCTL_RETRIES: '0',
        },
      });
      expect(r.code).toBe(7);
      expect(r.stderr).toContain(`push of ${file} failed: 2500 of 5000 transaction(s) answered for`);
      expect(r.stderr).not.toMatch(/^pushed /m);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
