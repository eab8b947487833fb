// The test bench through the spawned CLI against `bankctl sandbox start --detach`, as a partner's
// test suite drives it: a clock and a scenario at start, a connection put into SESSION_EXPIRED
// (refresh fails until authenticate), a consent expired and renewed through update-link, the
// request log followed until --wait-timeout and until Ctrl-C, and a reset that gives a new client.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BIN, removeDir, spawnCli, tempDir } from '../helpers/cli.js';
import { FIXTURES } from './helpers.js';

const configDir = tempDir();
const env = { BANKCTL_CONFIG_DIR: configDir, BANKCTL_RETRIES: '0' };
const cli = (args: string[], timeoutMs?: number) => spawnCli(args, { env, timeoutMs });
let ready: { baseUrl: string; clientId: string };
let ids: { users: Record<string, string>; credentials: Record<string, string>; created: number };

beforeAll(async () => {
  const r = await cli([
    'sandbox',
    'start',
    '--detach',
    '--port',
    '0',
    '--auth-delay',
    '50',
    '--clock',
    '2026-02-01T10:00:00Z',
    '--fixtures',
    FIXTURES,
    '-o',
    'json',
  ]);
  expect(r.code, r.stderr).toBe(0);
  ready = JSON.parse(r.stdout);
  const load = await cli(['sandbox', 'load', FIXTURES, '-o', 'json']);
  expect(load.code, load.stderr).toBe(0);
  ids = JSON.parse(load.stdout);
  expect(ids.created).toBe(0); // --fixtures loaded it already
}, 30_000);
afterAll(async () => {
  await cli(['sandbox', 'stop']);
  removeDir(configDir);
});

test('the clock starts where --clock says and advances', async () => {
  const show = await cli(['sandbox', 'clock', 'show', '-o', 'json']);
  expect(JSON.parse(show.stdout).now).toMatch(/^2026-02-01T10:0/);
  const adv = await cli(['sandbox', 'clock', 'advance', '1d', '-o', 'json']);
  expect(JSON.parse(adv.stdout).now).toMatch(/^2026-02-02T10:0/);
});

test('SESSION_EXPIRED: a refresh fails (exit 9) until credentials authenticate', async () => {
  const id = ids.credentials['alice-bank']!;
  const set = await cli(['sandbox', 'credentials', 'set-status', id, 'SESSION_EXPIRED']);
  expect(set.code, set.stderr).toBe(0);
  const refresh = await cli([
    'credentials',
    'refresh',
    id,
    '--wait',
    '--external-user',
    'alice-ext',
    '--poll-interval',
    '50',
  ]);
  expect(refresh.code, refresh.stderr).toBe(9);
  expect(refresh.stderr).toMatch(/SESSION_EXPIRED/);
  const auth = await cli([
    'credentials',
    'authenticate',
    id,
    '--wait',
    '--external-user',
    'alice-ext',
    '--poll-interval',
    '50',
    '-o',
    'json',
  ]);
  expect(auth.code, auth.stderr).toBe(0);
  expect(JSON.parse(auth.stdout).status).toBe('UPDATED');
  const again = await cli([
    'credentials',
    'refresh',
    id,
    '--wait',
    '--external-user',
    'alice-ext',
    '--poll-interval',
    '50',
    '-o',
    'json',
  ]);
  expect(again.code, again.stderr).toBe(0);
}, 60_000);

test('consents expire, then update-link renews it end to end', async () => {
  const id = ids.credentials['alice-bank']!;
  const exp = await cli(['sandbox', 'consents', 'expire', id]);
  expect(exp.code, exp.stderr).toBe(0);
  const before = JSON.parse((await cli(['consents', 'list', '--external-user', 'alice-ext', '-o', 'json'])).stdout);
  expect(before.find((c: { credentialsId: string }) => c.credentialsId === id).status).toBe('SESSION_EXPIRED');
  const link = await cli(['consents', 'update-link', id, '--external-user', 'alice-ext']);
  expect(link.code, link.stderr).toBe(0);
  const url = new URL(link.stdout.trim());
  expect((await fetch(url)).status).toBe(200);
  const form = new URLSearchParams(url.searchParams);
  form.set('action', 'extend');
  const post = await fetch(`${ready.baseUrl}${url.pathname}`, { method: 'POST', body: form, redirect: 'manual' });
  expect(post.status).toBe(302);
  const after = JSON.parse((await cli(['consents', 'list', '--external-user', 'alice-ext', '-o', 'json'])).stdout);
  expect(after.find((c: { credentialsId: string }) => c.credentialsId === id).status).toBe('UPDATED');
}, 60_000);

test('logs --follow: streams until --wait-timeout (exit 0), and until Ctrl-C (exit 130)', async () => {
  const follow = cli(
    ['sandbox', 'logs', '--follow', '--wait-timeout', '3', '--path', '/api/v1/providers*', '-o', 'ndjson'],
    20_000,
  );
  await new Promise((r) => setTimeout(r, 1200));
  await fetch(`${ready.baseUrl}/api/v1/providers/SE`, { headers: { 'x-request-id': 'followed-1' } });
  const r = await follow;
  expect(r.code, r.stderr).toBe(0);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => l.requestId)).toContain('followed-1');

  const child = spawn(process.execPath, [BIN, 'sandbox', 'logs', '--follow'], {
    env: { PATH: process.env.PATH, ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  await new Promise((res) => setTimeout(res, 1500));
  child.kill('SIGINT');
  const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)));
  expect(code).toBe(130);
  // what README's exit-code table says a follow prints when stopped (as `credentials watch` does)
  expect(err).toContain('error: stopped following the sandbox log');
}, 30_000);

test('reset asks for --yes without a terminal; --yes gives a new client that the default profile follows', async () => {
  const refused = await cli(['sandbox', 'reset']);
  expect(refused.code).toBe(2);
  const r = await cli(['sandbox', 'reset', '--yes', '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  const reset = JSON.parse(r.stdout);
  expect(reset.clientId).not.toBe(ready.clientId);
  // the next command reads the rewritten state file: the new client works, the store is empty
  const users = await cli(['sandbox', 'load', FIXTURES, '-o', 'json']);
  expect(users.code, users.stderr).toBe(0);
  expect(JSON.parse(users.stdout).created).toBeGreaterThan(0);
}, 30_000);
