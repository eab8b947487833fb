// What must hold through injected faults (issue 10): a push of 20,000 transactions lands every
// one exactly once, also across a SIGKILL and a resume; paging returns every transaction once;
// connecting a bank survives transient faults and reports persistent ones with the right code.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, spawnCli, tempDir } from '../helpers/cli.js';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { addDecimals, decimalString } from '../../src/output/money.js';

const FAULTS = { rate: 0.2, seed: 11, retryAfterS: 0, slowMs: 30 };
let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox({ faults: FAULTS });
});
afterAll(() => t.close());

/** Setup calls of the test itself go around the faults by retrying until the sandbox answers for real. */
async function reliably(method: string, path: string, opts: Parameters<typeof raw>[3]) {
  for (let i = 0; i < 50; i++) {
    try {
      const r = await raw(t.sandbox.baseUrl, method, path, opts);
      if (![429, 500, 503].includes(r.status) || !/injected/.test(r.text)) return r;
    } catch {
      // an injected reset
    }
  }
  throw new Error(`${method} ${path} kept failing`);
}

const conn = () => ({ authorization: `Token ${t.sandbox.connectorToken}` });

async function connectorUser(externalId: string, accounts: string[]) {
  const token = `tok-${externalId}-secret`;
  const u = await reliably('POST', '/connector/users', { headers: conn(), json: { externalId, token, market: 'SE' } });
  expect([204, 409]).toContain(u.status);
  const a = await reliably('POST', `/connector/users/${externalId}/accounts`, {
    headers: conn(),
    json: {
      accounts: accounts.map((id, i) => ({
        externalId: id,
        name: `Account ${i}`,
        number: `1000-${i}`,
        balance: 1000 + i,
        type: 'CHECKING',
      })),
    },
  });
  expect([204, 409]).toContain(a.status);
  return token;
}

function writeInput(dir: string, n: number, accounts: string[]): { file: string; accountsFile: string; sum: string } {
  const day = 86_400_000;
  const base = Date.UTC(2026, 5, 1);
  const lines: string[] = [];
  const amounts: string[] = [];
  for (let i = 0; i < n; i++) {
    const amount = `${i % 3 === 0 ? '' : '-'}${(i * 37) % 500}.${String((i * 7) % 100).padStart(2, '0')}`;
    amounts.push(amount);
    lines.push(
      JSON.stringify({
        account: accounts[i % accounts.length],
        externalId: `tx-${i}`,
        amount: Number(amount),
        date: base + (i % 120) * day,
        description: `Purchase ${i}`,
        type: 'DEFAULT',
        pending: false,
      }),
    );
  }
  const file = join(dir, 'tx.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const accountsFile = join(dir, 'accounts.ndjson');
  writeFileSync(
    accountsFile,
    `${accounts.map((id, i) => JSON.stringify({ externalId: id, name: `Account ${i}`, number: `1000-${i}`, balance: 1000 + i, type: 'CHECKING' })).join('\n')}\n`,
  );
  return { file, accountsFile, sum: addDecimals(amounts) };
}

async function readBack(externalId: string, token: string): Promise<{ count: number; unique: number; sum: string }> {
  const basic = `Basic ${Buffer.from(`${externalId}:${token}`).toString('base64')}`;
  const ids = new Set<string>();
  const amounts: string[] = [];
  let pageToken = '';
  do {
    const q = new URLSearchParams({ pageSize: '100', bookedDateGte: '2020-01-01' });
    if (pageToken) q.set('pageToken', pageToken);
    const r = await reliably('GET', `/data/v2/transactions?${q}`, { headers: { authorization: basic } });
    expect(r.status).toBe(200);
    const page = r.json();
    for (const tx of page.transactions) {
      ids.add(tx.id);
      amounts.push(decimalString(tx.amount.value.unscaledValue, tx.amount.value.scale));
    }
    pageToken = page.nextPageToken ?? '';
  } while (pageToken);
  return { count: amounts.length, unique: ids.size, sum: amounts.length ? addDecimals(amounts) : '0' };
}

describe('through a 20% fault rate (429, 500, 503, reset, slow)', () => {
  test('a push of 20,000 transactions lands every one exactly once', async () => {
    const dir = tempDir();
    const accounts = ['acc-a', 'acc-b', 'acc-c'];
    const token = await connectorUser('fault-push', accounts);
    const input = writeInput(dir, 20_000, accounts);
    const r = await spawnCli(
      [
        'connector',
        'push',
        '--file',
        input.file,
        '--accounts',
        input.accountsFile,
        '--user',
        'fault-push',
        '--type',
        'BATCH',
        '--retries',
        '12',
        '--checkpoint',
        join(dir, 'cp.json'),
      ],
      { env: t.env, timeoutMs: 120_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const back = await readBack('fault-push', token);
    expect(back).toEqual({ count: 20_000, unique: 20_000, sum: expect.any(String) });
    expect(addDecimals([back.sum, input.sum.startsWith('-') ? input.sum.slice(1) : `-${input.sum}`])).toMatch(
      /^-?0(\.0+)?$/,
    );
  }, 150_000);

  test('the same after the push is killed with SIGKILL mid-way and resumed from its checkpoint', async () => {
    const dir = tempDir();
    const accounts = ['acc-x', 'acc-y'];
    const token = await connectorUser('fault-kill', accounts);
    const input = writeInput(dir, 20_000, accounts);
    const checkpoint = join(dir, 'cp.json');
    const args = [
      BIN,
      'connector',
      'push',
      '--file',
      input.file,
      '--accounts',
      input.accountsFile,
      '--user',
      'fault-kill',
      '--type',
      'BATCH',
      '--retries',
      '12',
      '--checkpoint',
      checkpoint,
      '--concurrency',
      '1',
    ];
    const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH, ...t.env } });
    // kill once a checkpoint exists and some data has landed
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        const landed = [...t.sandbox.store.transactions.values()].some((x) => x.externalId === 'tx-2600');
        if (existsSync(checkpoint) && landed) {
          clearInterval(poll);
          child.kill('SIGKILL');
          resolve();
        }
      }, 5);
    });
    await new Promise((r) => child.once('exit', r));
    const partial = await readBack('fault-kill', token);
    expect(partial.count).toBeLessThan(20_000);
    const resumed = await spawnCli(args.slice(1), { env: t.env, timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const back = await readBack('fault-kill', token);
    expect(back.count).toBe(20_000);
    expect(back.unique).toBe(20_000);
  }, 150_000);

  test('transactions list --all returns every transaction once', async () => {
    const token = await connectorUser('fault-read', ['acc-r']);
    const dir = tempDir();
    const input = writeInput(dir, 3_000, ['acc-r']);
    const pushed = await spawnCli(
      [
        'connector',
        'push',
        '--file',
        input.file,
        '--accounts',
        input.accountsFile,
        '--user',
        'fault-read',
        '--retries',
        '12',
      ],
      { env: t.env, timeoutMs: 60_000 },
    );
    expect(pushed.code, pushed.stderr).toBe(0);
    const r = await spawnCli(
      [
        'transactions',
        'list',
        '--all',
        '--from',
        '2020-01-01',
        '--page-size',
        '100',
        '-o',
        'ndjson',
        '--retries',
        '12',
        '--basic',
        `fault-read:${token}`,
      ],
      {
        env: t.env,
        timeoutMs: 60_000,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3_000);
    expect(new Set(lines.map((l) => l.id)).size).toBe(3_000);
    expect(Object.values(t.sandbox.faultCounts).reduce((a, b) => a + b, 0)).toBeGreaterThan(20);
  }, 90_000);
});

describe('connecting a bank through faults', () => {
  test('transient faults (429 and slow bodies) are survived; a persistent 503 is reported with exit 7', async () => {
    const transient = await startTestSandbox({
      faults: { rate: 0.3, seed: 5, kinds: ['429', 'slow'], retryAfterS: 0, slowMs: 20 },
    });
    try {
      const user = await spawnCli(['users', 'create', '--market', 'SE', '-o', 'json', '--retries', '10'], {
        env: transient.env,
      });
      expect(user.code, user.stderr).toBe(0);
      const userId = JSON.parse(user.stdout).user_id;
      const r = await spawnCli(
        [
          'credentials',
          'connect',
          '--provider',
          'se-test-password',
          '--field',
          'username=test-user',
          '--field',
          'password=test-password',
          '--user',
          userId,
          '--retries',
          '10',
          '-o',
          'json',
        ],
        { env: transient.env, timeoutMs: 60_000 },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).status).toBe('UPDATED');
      const smoke = await spawnCli(['smoke', '--retries', '10', '-o', 'json'], {
        env: transient.env,
        timeoutMs: 90_000,
      });
      expect(smoke.code, smoke.stdout + smoke.stderr).toBe(0);
    } finally {
      await transient.close();
    }
    const down = await startTestSandbox({ faults: { rate: 1, kinds: ['503'], retryAfterS: 0 } });
    try {
      const r = await spawnCli(['credentials', 'list', '--user', 'someone', '--retries', '2'], { env: down.env });
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(/HTTP 503/);
      const smoke = await spawnCli(['smoke', '--retries', '1', '-o', 'json'], { env: down.env, timeoutMs: 60_000 });
      expect(smoke.code).toBe(9);
      expect(smoke.stderr).toMatch(/smoke check "client token" failed: .*HTTP 503/);
    } finally {
      await down.close();
    }
  }, 120_000);
});
