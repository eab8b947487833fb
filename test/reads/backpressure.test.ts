// --all streams with back-pressure: while the reader of stdout is stalled, the CLI stops fetching
// pages (it does not buffer the whole result); once the reader drains, every transaction arrives.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { addAccount, addTx, reader } from './helpers.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox({ seed: 5 });
});
afterAll(() => t.close());

it('stops requesting pages while stdout is not read, then delivers all of them', async () => {
  const r = await reader(t.sandbox, 'SE', ['transactions:read']);
  const a = addAccount(t.sandbox.store, r.userId);
  const N = 6000;
  // long descriptions: each page is about 60 KB, more than a pipe holds
  for (let i = 0; i < N; i++)
    addTx(t.sandbox.store, a, `-${i}.10`, '2024-03-01', { description: `Purchase ${i} ${'x'.repeat(300)}` });
  const child = spawn(process.execPath, [BIN, 'transactions', 'list', '--all', '-o', 'ndjson', '-v'], {
    env: { PATH: process.env.PATH, ...t.env, BANKCTL_TOKEN: r.token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const pages = () =>
    stderr.split('\n').filter((l) => l.includes('GET ') && l.includes('/data/v2/transactions')).length;
  child.stdout.pause();
  // give it time to run ahead if it were going to
  await new Promise((res) => setTimeout(res, 2500));
  const whileStalled = pages();
  expect(whileStalled).toBeGreaterThan(0);
  expect(whileStalled).toBeLessThan(10);
  let lines = 0;
  let rest = '';
  child.stdout.on('data', (c: Buffer) => {
    const text = rest + c.toString('utf8');
    const parts = text.split('\n');
    rest = parts.pop()!;
    lines += parts.length;
  });
  child.stdout.resume();
  const code = await new Promise((res) => child.on('close', res));
  expect(code, stderr.slice(-500)).toBe(0);
  expect(lines).toBe(N);
  expect(pages()).toBe(N / 100);
});
