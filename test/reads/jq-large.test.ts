// --jq over a long list, through the built CLI (the bundle carries the fix in scripts/build.mjs):
// jq-wasm read its input one byte at a time by copying the rest, so 1,000 transactions took 81 s.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { addAccount, addTx } from './helpers.js';

let t: TestEnv;
let env: Record<string, string>;
const N = 2000;
beforeAll(async () => {
  t = await startTestSandbox({ seed: 12 });
  const { userId } = await userWithToken(t.sandbox, ['user:read']);
  const a = addAccount(t.sandbox.store, userId, { name: 'Long' });
  for (let i = 1; i <= N; i++) addTx(t.sandbox.store, a, `-${i}.25`, '2020-01-01', { description: `shop ${i}` });
  env = { ...t.env, BANKCTL_USER: userId };
});
afterAll(() => t.close());

it('--jq over 2,000 transactions answers in seconds, with every one of them', async () => {
  const started = Date.now();
  const r = await spawnCli(
    ['transactions', 'list', '--all', '-o', 'json', '--jq', '[.[] | .amount.value.unscaledValue | tonumber] | add'],
    { env, timeoutMs: 90_000 },
  );
  const seconds = (Date.now() - started) / 1000;
  expect(r.code, r.stderr).toBe(0);
  // sum of -(i*100 + 25) for i = 1..N, in cents
  expect(r.stdout.trim()).toBe(String(-((100 * (N * (N + 1))) / 2 + 25 * N)));
  expect(seconds).toBeLessThan(30);
  const lines = await spawnCli(['transactions', 'list', '--all', '-o', 'json', '--jq', '.[].descriptions.display'], {
    env,
    timeoutMs: 90_000,
  });
  expect(lines.stdout.trim().split('\n')).toHaveLength(N);
}, 120_000);

it('jq writing to its stderr for each of 2,000 (`debug`) is linear too: the ids on stdout, in seconds', async () => {
  const started = Date.now();
  const r = await spawnCli(['transactions', 'list', '--all', '-o', 'json', '--jq', '.[] | debug | .id'], {
    env,
    timeoutMs: 90_000,
  });
  expect(r.code, r.stderr).toBe(0);
  const ids = r.stdout.trim().split('\n');
  expect(ids).toHaveLength(N);
  expect(new Set(ids).size).toBe(N);
  expect((Date.now() - started) / 1000).toBeLessThan(30);
}, 120_000);

it('-o ndjson --jq runs jq once per item: all 2,000 come out, past the ~310 calls one jq-wasm instance survives', async () => {
  // jq-wasm aborted on about its 310th call ("memory access out of bounds"): the walk stopped at
  // 300 lines with exit 2
  const r = await spawnCli(['transactions', 'list', '--all', '-o', 'ndjson', '--jq', '.id'], {
    env,
    timeoutMs: 90_000,
  });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toMatch(/jq|Aborted/);
  const ids = r.stdout.trim().split('\n');
  expect(ids).toHaveLength(N);
  expect(new Set(ids).size).toBe(N);
}, 120_000);
