// The real binary: kill -9 in the middle of a push and resume to exactly once; verify reads back.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, spawnCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { makeTxs, userWithAccounts, writeNdjson } from './helpers.js';
import { reply, scriptedServer } from '../helpers/scripted-server.js';
import { dateRanges, expectedFromFile } from '../../src/push/verify.js';

let env: TestEnv;
let dir: string;
beforeAll(async () => {
  // latency makes a push slow enough to be killed in the middle
  env = await startTestSandbox({ latencyMs: 40 });
  dir = tempDir();
  await userWithAccounts(env, 'e2e', 3);
});
afterAll(async () => env.close());

const externalIdsOf = (user: string) => {
  const u = env.sandbox.store.userByExternalId(user)!;
  return [...env.sandbox.store.transactions.values()].filter((t) => t.userId === u.id).map((t) => t.externalId!);
};

describe('kill -9 and resume', () => {
  test('a push killed in the middle resumes from its checkpoint, and every transaction lands exactly once', async () => {
    const n = 60_000;
    const file = writeNdjson(dir, 'big.ndjson', makeTxs(n, { accounts: 3 }), {
      'acc-0': '1.00',
      'acc-1': '2.00',
      'acc-2': '3.00',
    });
    const checkpoint = join(dir, 'push.ckpt');
    const args = [
      'connector',
      'push',
      '--user',
      'e2e',
      '--file',
      file,
      '--checkpoint',
      checkpoint,
      '--concurrency',
      '2',
    ];
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, ...env.env },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((r) =>
      child.on('exit', (_code, signal) => r(signal === 'SIGKILL' ? -9 : _code)),
    );
    // wait until some chunks are recorded, then kill without warning
    for (let i = 0; i < 400; i++) {
      await new Promise((r) => setTimeout(r, 25));
      if (existsSync(checkpoint) && JSON.parse(readFileSync(checkpoint, 'utf8')).delivered.length >= 3) break;
    }
    child.kill('SIGKILL');
    expect(await exited).toBe(-9);
    const recorded = JSON.parse(readFileSync(checkpoint, 'utf8')).delivered.length as number;
    expect(recorded).toBeGreaterThanOrEqual(3);
    expect(recorded).toBeLessThan(24);
    const before = externalIdsOf('e2e').length;
    expect(before).toBeLessThan(n);

    const report = join(dir, 'resume.report.json');
    const r = await spawnCli([...args, '--report', report], { env: env.env, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(readFileSync(report, 'utf8'));
    expect(rep.summary.resumedChunks).toBe(recorded);
    // chunks recorded before the kill were not sent again; the ones in flight at the kill were
    // resent and their 409s count as delivered (they were this push's own)
    expect(rep.summary.sent).toBe(n - recorded * 2500);
    expect(rep.summary).toMatchObject({ delivered: n, duplicates: 0 });
    expect(rep.chunks.filter((c: { resent?: boolean }) => c.resent).length).toBeLessThanOrEqual(2);
    const ids = externalIdsOf('e2e');
    expect(ids).toHaveLength(n);
    expect(new Set(ids).size).toBe(n);
    // a third run finds everything delivered and sends nothing
    const third = await spawnCli([...args, '--report', report], { env: env.env });
    expect(third.code).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8')).summary).toMatchObject({ sent: 0, resumedChunks: 24 });
  }, 60_000);
});

describe('Ctrl-C', () => {
  test('SIGINT stops a push with exit 130 and leaves a checkpoint that the next run resumes from', async () => {
    await userWithAccounts(env, 'sigint', 1);
    const n = 30_000;
    const file = writeNdjson(dir, 'sigint.ndjson', makeTxs(n, { prefix: 'si' }), { 'acc-0': '5' });
    const checkpoint = join(dir, 'sigint.ckpt');
    const args = [
      'connector',
      'push',
      '--user',
      'sigint',
      '--file',
      file,
      '--checkpoint',
      checkpoint,
      '--concurrency',
      '1',
    ];
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, ...env.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const delivered = () =>
      existsSync(checkpoint) ? JSON.parse(readFileSync(checkpoint, 'utf8')).delivered.length : 0;
    for (let i = 0; i < 400 && delivered() < 1; i++) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain(`--checkpoint ${checkpoint}`);
    const r = await spawnCli(args, { env: env.env, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/delivered before, skipped/);
    expect(new Set(externalIdsOf('sigint')).size).toBe(n);
    expect(externalIdsOf('sigint')).toHaveLength(n);
  }, 60_000);
});

describe('Ctrl-C at other moments: exit 130 and the interrupted summary, never a stack trace', () => {
  /** Runs push with args against env, presses Ctrl-C once stderr matches ready (or after ready ms); the result. */
  async function interrupted(args: string[], e: Record<string, string | undefined>, ready: RegExp | number) {
    const child = spawn(process.execPath, [BIN, 'connector', 'push', ...args], {
      env: { PATH: process.env.PATH, ...e },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let sent = false;
    if (typeof ready === 'number')
      setTimeout(() => {
        sent = true;
        child.kill('SIGINT');
      }, ready);
    child.stderr.on('data', (c) => {
      stderr += c;
      if (!sent && typeof ready !== 'number' && ready.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    return { code, stderr, sent };
  }

  test('while a chunk waits out a retry (429 with Retry-After)', async () => {
    // every request is answered 429 with a long wait: the push sits in its retry wait
    const s = await scriptedServer(() => (_req, res) => res.writeHead(429, { 'retry-after': '30' }).end('{}'));
    try {
      const file = writeNdjson(dir, 'retry-wait.ndjson', makeTxs(6000, { prefix: 'rw' }), { 'acc-0': '5' });
      const r = await interrupted(
        ['--user', 'u', '--file', file, '--checkpoint', join(dir, 'retry-wait.ckpt')],
        { BANKCTL_BASE_URL: s.url, BANKCTL_CONNECTOR_TOKEN: 'tok', BANKCTL_CONFIG_DIR: tempDir() },
        /retrying in/,
      );
      expect(r.sent).toBe(true);
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toContain('interrupted');
      expect(r.stderr).not.toMatch(/AbortError|ClientDestroyedError|node:internal|\n\s+at /);
    } finally {
      await s.close();
    }
  }, 60_000);

  test('while a large file is checked by the scan workers', async () => {
    const big = join(dir, 'interrupt-big.ndjson');
    // an escape in each line: the general reader (JSON.parse a line), slow enough to be stopped in
    const line = (i: number) =>
      `{"account":"acc-0","balance":1,"externalId":"ib-${i}","amount":-1.25,"date":1700000000000,"description":"caf\\u00e9 ${'d'.repeat(60)}","type":"DEFAULT"}`;
    writeFileSync(big, `${Array.from({ length: 400_000 }, (_, i) => line(i)).join('\n')}\n`);
    // on a loaded machine the CLI may not have begun the check at 500 ms (then the Ctrl-C stops it
    // before the push owns it: a bare "interrupted", or, before node has run bankctl at all, death by
    // the signal); later, the check is still going on
    const tooEarly = (x: { code: number | null; stderr: string }) =>
      x.code === null || x.stderr.trim() === 'interrupted';
    let r = await interrupted(['--user', 'u', '--file', big, '--dry-run', '-v'], env.env, 500);
    for (const later of [1000, 1500])
      if (tooEarly(r)) r = await interrupted(['--user', 'u', '--file', big, '--dry-run', '-v'], env.env, later);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('interrupted');
    expect(r.stderr).not.toMatch(/unexpected|scan worker stopped|\n\s+at /);
    // stopped while checking, not after a finished dry run
    expect(r.stderr).toContain('interrupted while checking the input; nothing sent');
  }, 60_000);
});

describe('verify', () => {
  test('counts and exact sums per account match after a push, read back with a generated token or HTTP Basic; drift exits 9', async () => {
    await userWithAccounts(env, 'ver', 2);
    const txs = makeTxs(250, { accounts: 2, prefix: 'ver' });
    // a pending one replaced by a booked one must not count as drift
    txs.push({
      account: 'acc-1',
      externalId: 'ver-p',
      amount: '-9.99',
      date: 1_700_000_000_000,
      description: 'reserved',
      type: 'DEFAULT',
      pending: true,
    });
    txs.push({
      account: 'acc-1',
      externalId: 'ver-b',
      amount: '-9.95',
      date: 1_700_000_100_000,
      description: 'booked',
      type: 'DEFAULT',
      payload: { PENDING_IDS: ['ver-p'] },
    });
    const file = writeNdjson(dir, 'verify.ndjson', txs, { 'acc-0': '10', 'acc-1': '20' });
    const pushed = await spawnCli(['connector', 'push', '--user', 'ver', '--file', file, '--verify', '-o', 'json'], {
      env: env.env,
    });
    expect(pushed.code, pushed.stderr).toBe(0);
    const rows = JSON.parse(pushed.stdout);
    expect(rows).toHaveLength(2);
    expect(rows.every((x: { ok: boolean; sameTransactions: boolean }) => x.ok && x.sameTransactions)).toBe(true);
    expect(rows.find((x: { account: string }) => x.account === 'acc-1').expectedCount).toBe(126);
    expect(pushed.stderr).toMatch(
      /2 account\(s\) match \S*verify\.ndjson: counts, sums and each transaction's externalId and amount/,
    );

    const basic = await spawnCli(['connector', 'verify', '--user', 'ver', '--file', file, '-o', 'json'], {
      env: { ...env.env, BANKCTL_BASIC: 'ver:ver-token' },
    });
    expect(basic.code, basic.stderr).toBe(0);

    // two transactions of one account swap their amounts on the service: the same count and sum,
    // not the same transactions
    const [t0, t2] = ['ver-0', 'ver-2'].map((id) =>
      [...env.sandbox.store.transactions.values()].find((t) => t.externalId === id)!,
    );
    expect(t0!.amount).not.toBe(t2!.amount);
    [t0!.amount, t2!.amount] = [t2!.amount, t0!.amount];
    const swapped = await spawnCli(['connector', 'verify', '--user', 'ver', '--file', file, '-o', 'json'], {
      env: env.env,
    });
    expect(swapped.code).toBe(9);
    const acc0 = JSON.parse(swapped.stdout).find((x: { account: string }) => x.account === 'acc-0');
    expect(acc0).toMatchObject({ sameTransactions: false, ok: false });
    expect(acc0.expectedSum).toBe(acc0.actualSum);
    expect(swapped.stderr).toContain('but not the same transactions (an externalId or an amount differs)');
    [t0!.amount, t2!.amount] = [t2!.amount, t0!.amount];

    // the service loses one transaction: drift, exit 9, named account
    const lost = [...env.sandbox.store.transactions.values()].find((t) => t.externalId === 'ver-7')!;
    env.sandbox.store.transactions.delete(lost.id);
    const drift = await spawnCli(['connector', 'verify', '--user', 'ver', '--file', file], { env: env.env });
    expect(drift.code).toBe(9);
    expect(drift.stderr).toMatch(/acc-1 expected 126 transaction\(s\)/);
  }, 60_000);

  test('accounts pair through the samples the read-back meets; with every sample of an account lost, through a second pass over the file', async () => {
    await userWithAccounts(env, 'pair', 2);
    const txs = makeTxs(60, { accounts: 2, prefix: 'pr' });
    const file = writeNdjson(dir, 'pair.ndjson', txs);
    const pushed = await spawnCli(['connector', 'push', '--user', 'pair', '--file', file, '-q'], { env: env.env });
    expect(pushed.code, pushed.stderr).toBe(0);
    const ok = await spawnCli(['connector', 'verify', '--user', 'pair', '--file', file, '-o', 'json'], {
      env: env.env,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).map((r: { actualCount: number }) => r.actualCount)).toEqual([30, 30]);
    // the samples of acc-0 are its first booked transactions in the file: the service loses them all
    const { samples } = await expectedFromFile(file, 'ndjson');
    const lost = [...samples].filter(([, account]) => account === 'acc-0').map(([id]) => id);
    expect(lost).toEqual(['pr-0', 'pr-2', 'pr-4', 'pr-6']);
    for (const t of [...env.sandbox.store.transactions.values()])
      if (lost.includes(t.externalId!)) env.sandbox.store.transactions.delete(t.id);
    const drift = await spawnCli(['connector', 'verify', '--user', 'pair', '--file', file, '-o', 'json'], {
      env: env.env,
    });
    expect(drift.code).toBe(9);
    // still paired (by the service's own sample, found in the file): 26 left, not "0 on the service"
    expect(JSON.parse(drift.stdout).map((r: { actualCount: number }) => r.actualCount)).toEqual([26, 30]);
  }, 60_000);

  test('reads back in date ranges side by side: every day once, and a transaction lost on a range edge is drift', async () => {
    await userWithAccounts(env, 'ranges', 3);
    // 40 days, 10 transactions a day
    const txs = makeTxs(400, { accounts: 3, prefix: 'rg' }).map((t, k) => ({
      ...t,
      date: Date.UTC(2025, 0, 1) + k * 8_640_000,
    }));
    const file = writeNdjson(dir, 'ranges.ndjson', txs);
    const pushed = await spawnCli(['connector', 'push', '--user', 'ranges', '--file', file, '-q'], { env: env.env });
    expect(pushed.code, pushed.stderr).toBe(0);
    for (const c of ['1', '7']) {
      const v = await spawnCli(
        ['connector', 'verify', '--user', 'ranges', '--file', file, '--concurrency', c, '-o', 'json'],
        {
          env: env.env,
        },
      );
      expect(v.code, v.stderr).toBe(0);
      expect(JSON.parse(v.stdout).map((r: { actualCount: number }) => r.actualCount)).toEqual([134, 133, 133]);
    }
    // the ranges verify cuts the file into; lose the last transaction of the first and the first of the second
    const ranges = dateRanges(await expectedFromFile(file, 'ndjson'), 7);
    expect(ranges).toHaveLength(7);
    const u = env.sandbox.store.userByExternalId('ranges')!;
    const mine = [...env.sandbox.store.transactions.values()].filter((t) => t.userId === u.id);
    const onEdge = [
      mine.filter((t) => t.bookedDate === ranges[0]!.lte).sort((a, b) => (a.externalId! < b.externalId! ? 1 : -1))[0]!,
      mine.filter((t) => t.bookedDate === ranges[1]!.gte).sort((a, b) => (a.externalId! < b.externalId! ? -1 : 1))[0]!,
    ];
    for (const t of onEdge) env.sandbox.store.transactions.delete(t.id);
    const drift = await spawnCli(
      ['connector', 'verify', '--user', 'ranges', '--file', file, '--concurrency', '7', '-o', 'json'],
      {
        env: env.env,
      },
    );
    expect(drift.code).toBe(9);
    const missing =
      400 - JSON.parse(drift.stdout).reduce((n: number, r: { actualCount: number }) => n + r.actualCount, 0);
    expect(missing).toBe(2);
  }, 60_000);

  test('a page that is not what the endpoint returns is exit 7 naming it, never a partial count', async () => {
    const file = writeNdjson(dir, 'hostile.ndjson', makeTxs(5, { prefix: 'h' }));
    const server = await scriptedServer((n) =>
      n === 0
        ? reply(200, JSON.stringify({ transactions: [], nextPageToken: '' }))
        : reply(
            200,
            JSON.stringify({ transactions: [{ id: 'x', accountId: 'a1', descriptions: {} }], nextPageToken: '' }),
          ),
    );
    try {
      const v = await spawnCli(['connector', 'verify', '--user', 'h', '--file', file], {
        env: {
          BANKCTL_CONFIG_DIR: tempDir(),
          BANKCTL_BASE_URL: server.url,
          BANKCTL_BASIC: 'h:t',
          BANKCTL_RETRIES: '0',
        },
      });
      expect(v.code, v.stderr).toBe(7);
      expect(v.stderr).toMatch(/GET \/data\/v2\/transactions answered 200 .* without accountId or amount\.value/);
      expect(v.stdout).toBe('');
    } finally {
      await server.close();
    }
  });

  test('invalid records: left out with a warning after push --skip-invalid; a file with nothing valid is exit 2, not "0 accounts match"', async () => {
    await userWithAccounts(env, 'inval', 1);
    const good = readFileSync(writeNdjson(dir, 'inval-good.ndjson', makeTxs(20, { prefix: 'iv' }))).toString();
    const file = join(dir, 'inval.ndjson');
    writeFileSync(file, `${good}{"account":"acc-0","externalId":"iv-x","amount":"1.00"}\n{bad json\n`);
    const pushed = await spawnCli(
      ['connector', 'push', '--user', 'inval', '--file', file, '--skip-invalid', join(dir, 'rej.ndjson'), '-q'],
      {
        env: env.env,
      },
    );
    expect(pushed.code, pushed.stderr).toBe(0);
    const v = await spawnCli(['connector', 'verify', '--user', 'inval', '--file', file, '-o', 'json'], {
      env: env.env,
    });
    expect(v.code, v.stderr).toBe(0);
    expect(v.stderr).toContain('warning: 2 invalid record(s) in');
    expect(JSON.parse(v.stdout)).toMatchObject([{ account: 'acc-0', expectedCount: 20, actualCount: 20, ok: true }]);

    const bad = join(dir, 'all-bad.ndjson');
    writeFileSync(bad, '{bad json\n{"account":"acc-0"}\n');
    const none = await spawnCli(['connector', 'verify', '--user', 'inval', '--file', bad], { env: env.env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/all-bad\.ndjson has no valid transaction to compare \(2 invalid record\(s\)\)/);
    expect(none.stdout).toBe('');
    const empty = join(dir, 'empty.ndjson');
    writeFileSync(empty, '');
    const nothing = await spawnCli(['connector', 'verify', '--user', 'inval', '--file', empty], { env: env.env });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('empty.ndjson has no valid transaction to compare');
  }, 60_000);
});
