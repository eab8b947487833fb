// `transactions list --all -o table` on 300,000 transactions: a table drawn in linear time, every
// row there, memory flat; SIGTERM and SIGINT stop it at once. (cli-table3 needed a minute for
// 20,000 rows and overflowed the stack at 300,000, deaf to signals while it worked.)
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { addAccount } from '../helpers/store-fixtures.js';

const N = 300_000;
const SMALL = 20_000;
let t: TestEnv;
let small: TestEnv;
let env: Record<string, string>;
let smallEnv: Record<string, string>;

async function userWith(t: TestEnv, n: number): Promise<Record<string, string>> {
  const u = await userWithToken(t.sandbox, ['transactions:read']);
  const store = t.sandbox.store;
  const account = addAccount(store, u.userId);
  const now = store.clock.now();
  for (let i = 0; i < n; i++) {
    const id = store.ids.next();
    const date = `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    store.transactions.set(id, {
      id,
      userId: u.userId,
      accountId: account.id,
      amount: `-${(i % 9973) + 1}.${String(i % 100).padStart(2, '0')}`,
      currencyCode: 'SEK',
      bookedDate: date,
      valueDate: date,
      description: i === n - 1 ? 'the very last one, with a description longer than any before it' : `Shop ${i % 97}`,
      originalDescription: 'SHOP',
      categoryId: '',
      status: 'BOOKED',
      type: 'DEFAULT',
      seq: store.nextSeq(),
      created: now,
      updated: now,
    });
  }
  return { ...t.env, BANKCTL_TOKEN: u.token };
}

beforeAll(async () => {
  [t, small] = await Promise.all([startTestSandbox(), startTestSandbox()]);
  env = await userWith(t, N);
  // a sandbox of its own: its pages come fast, so the drawing is what takes time
  smallEnv = await userWith(small, SMALL);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await small?.close();
});

function run(e: Record<string, string>, signalAfterMs?: number, signal: NodeJS.Signals = 'SIGTERM') {
  return new Promise<{
    code: number | null;
    rows: number;
    bytes: number;
    ms: number;
    afterSignalMs: number;
    stderr: string;
  }>((resolve) => {
    const started = Date.now();
    let signalled = 0;
    const child = spawn(process.execPath, [BIN, 'transactions', 'list', '--all', '-o', 'table'], {
      env: { PATH: process.env.PATH, ...e },
    });
    let rows = 0;
    let bytes = 0;
    let tail = '';
    let stderr = '';
    // the signal's clock starts at the table's first bytes: on a loaded machine Node alone can take
    // longer than signalAfterMs to start, and a signal before bankctl listens kills it outright
    const arm = () => {
      if (signalAfterMs === undefined) return;
      setTimeout(() => {
        signalled = Date.now();
        child.kill(signal);
      }, signalAfterMs);
    };
    child.stdout.on('data', (c: Buffer) => {
      if (bytes === 0) arm();
      bytes += c.length;
      const text = tail + c.toString();
      const lines = text.split('\n');
      tail = lines.pop()!;
      for (const l of lines) if (/^\d{4}-\d{2}-\d{2}/.test(l)) rows++;
    });
    child.stderr.on('data', (c) => (stderr += c));
    const guard = setTimeout(() => child.kill('SIGKILL'), 110_000);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({
        code,
        rows,
        bytes,
        ms: Date.now() - started,
        afterSignalMs: signalled ? Date.now() - signalled : 0,
        stderr,
      });
    });
  });
}

describe('a table of 300,000 transactions', () => {
  test('every row, in linear time', async () => {
    const r = await run(env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.rows).toBe(N);
    expect(r.ms).toBeLessThan(90_000);
  }, 120_000);

  test('20,000 rows: never deaf to SIGTERM while it draws', async () => {
    // the old table took a minute for these and ignored signals all along
    const r = await run(smallEnv, 4000);
    if (r.code === 0) {
      expect(r.rows).toBe(SMALL);
      expect(r.afterSignalMs).toBe(0); // done before the signal was sent
    } else {
      expect(r.code).toBe(130);
      expect(r.afterSignalMs).toBeLessThan(1000);
    }
  }, 120_000);

  test.each(['SIGTERM', 'SIGINT'] as const)(
    '%s stops it at once with 130',
    async (sig) => {
      const r = await run(env, 1500, sig);
      expect(r.code).toBe(130);
      expect(r.rows).toBeLessThan(N);
      expect(r.afterSignalMs).toBeLessThan(1000);
    },
    60_000,
  );
});
