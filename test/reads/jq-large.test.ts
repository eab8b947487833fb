// --jq through the built CLI (the bundle carries jq-wasm's fixes in scripts/build.mjs): jq-wasm
// read its input one byte at a time by copying the rest, so 1,000 transactions took 81 s; and it
// dropped jq's error when jq had printed something first, so a filter failing half-way was exit 0.
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

it('jq writing to its stderr for each of 2,000 (`debug`) is linear too: the ids on stdout, the debug lines on stderr', async () => {
  const started = Date.now();
  const r = await spawnCli(['transactions', 'list', '--all', '-o', 'json', '--jq', '.[] | debug | .id'], {
    env,
    timeoutMs: 90_000,
  });
  expect(r.code, r.stderr).toBe(0);
  const ids = r.stdout.trim().split('\n');
  expect(ids).toHaveLength(N);
  expect(new Set(ids).size).toBe(N);
  expect(r.stderr.trim().split('\n')).toHaveLength(N);
  expect(r.stderr).toMatch(/^\["DEBUG:",\{"id":/);
  expect((Date.now() - started) / 1000).toBeLessThan(30);
}, 120_000);

it('a filter that fails after some output is exit 2: json and api print nothing, ndjson the lines before it', async () => {
  const three = ['transactions', 'list', '--limit', '3'];
  const ids = (await spawnCli([...three, '-o', 'ndjson', '--jq', '.id'], { env })).stdout.trim().split('\n');
  expect(ids).toHaveLength(3);
  const runs = [
    [...three, '-o', 'json', '--jq', '.[] | .id, error("gave up")'],
    // the last of three fails: two lines were already made
    [...three, '-o', 'ndjson', '--jq', `if .id == "${ids[2]}" then error("gave up") else .id end`],
    ['api', 'get', '/data/v2/transactions?pageSize=3', '--jq', '.transactions[] | .id, error("gave up")'],
  ];
  for (const args of runs) {
    const r = await spawnCli(args, { env });
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
    expect(r.stderr).toMatch(/--jq: jq: error .*gave up/);
    // the ndjson walk had written the first two before the third failed; json and api nothing
    if (args.includes('ndjson')) expect(r.stdout).toBe(`${ids[0]}\n${ids[1]}\n`);
    else expect(r.stdout).toBe('');
  }
});

it("jq's raw strings come out as jq writes them, spaces at either end included", async () => {
  const r = await spawnCli(['transactions', 'list', '--limit', '1', '--jq', '"  two spaces  ", .[0].id'], { env });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^ {2}two spaces {2}\n[0-9a-f]{32}\n$/);
});

it('-o ndjson --jq: all 2,000 come out, in about the time of one jq run over them all (one run a page, not an item)', async () => {
  // jq-wasm aborted on about its 310th call ("memory access out of bounds"): the walk stopped at
  // 300 lines with exit 2; one run an item (3 to 5 ms each) took 4 times the json --jq walk
  let started = Date.now();
  const whole = await spawnCli(['transactions', 'list', '--all', '-o', 'json', '--jq', '.[].id'], {
    env,
    timeoutMs: 90_000,
  });
  const wholeSeconds = (Date.now() - started) / 1000;
  expect(whole.stdout.trim().split('\n')).toHaveLength(N);
  started = Date.now();
  const r = await spawnCli(['transactions', 'list', '--all', '-o', 'ndjson', '--jq', '.id'], {
    env,
    timeoutMs: 90_000,
  });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toMatch(/jq|Aborted/);
  const ids = r.stdout.trim().split('\n');
  expect(ids).toHaveLength(N);
  expect(new Set(ids).size).toBe(N);
  expect(ids).toEqual(whole.stdout.trim().split('\n'));
  expect((Date.now() - started) / 1000).toBeLessThan(2 * wholeSeconds);
}, 120_000);

it('-o ndjson --jq with `input` or `halt`: each item is still filtered on its own', async () => {
  // fed a page at once, `input` would read the next item and `halt` would stop the page
  const three = ['transactions', 'list', '--limit', '3', '-o', 'ndjson'];
  const r = await spawnCli([...three, '--jq', 'try input catch "no other input"'], { env });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toBe('no other input\n'.repeat(3));
  const h = await spawnCli([...three, '--jq', '.id, halt'], { env });
  expect(h.code, h.stderr).toBe(0);
  expect(h.stdout.trim().split('\n')).toHaveLength(3);
});
