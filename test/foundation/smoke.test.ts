import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox({ authDelayMs: 5 });
});
afterAll(() => t.close());

describe('bankctl smoke', () => {
  test('green against the sandbox: every check timed, JUnit and JSON reports, test users cleaned up', async () => {
    const dir = tempDir();
    const usersBefore = t.sandbox.store.users.size;
    const r = await spawnCli(['smoke', '--junit', join(dir, 'smoke.xml'), '--report', join(dir, 'smoke.json')], {
      env: t.env,
      timeoutMs: 90_000,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const results = JSON.parse(r.stdout) as Array<{ name: string; status: string; ms: number }>;
    expect(results.map((x) => x.name)).toEqual([
      'client token',
      'create user',
      'grant and exchange',
      'providers',
      'connect test provider',
      'accounts',
      'transactions paging',
      'consents',
      'connector user with accounts',
      'push and read back',
      'webhook delivered',
      'cleanup',
    ]);
    expect(results.every((x) => x.status === 'passed' && Number.isInteger(x.ms))).toBe(true);
    const xml = readFileSync(join(dir, 'smoke.xml'), 'utf8');
    expect(xml).toMatch(/<testsuite name="bankctl smoke" tests="12" failures="0" skipped="0"/);
    expect(xml.match(/<testcase /g)).toHaveLength(12);
    const report = JSON.parse(readFileSync(join(dir, 'smoke.json'), 'utf8'));
    expect(report.baseUrl).toBe(t.sandbox.baseUrl);
    expect(report.results).toHaveLength(12);
    expect(t.sandbox.store.users.size).toBe(usersBefore);
    // the tokens cached for the deleted test user went with it
    const userId = (results.find((x) => x.name === 'create user') as unknown as { detail: string }).detail.split(
      ' ',
    )[1];
    const status = await spawnCli(['auth', 'status', '-o', 'json'], { env: t.env });
    const tokens = JSON.parse(status.stdout).tokens as Array<{ user?: string }>;
    expect(tokens.filter((x) => x.user === `id:${userId}`)).toEqual([]);
  }, 120_000);

  test('a failing check: exit 9 naming it, dependants skipped, cleanup still runs; --keep keeps the users', async () => {
    const dir = tempDir();
    const usersBefore = t.sandbox.store.users.size;
    // a provider the sandbox does not list is a usage error before anything is created
    const unknown = await spawnCli(['smoke', '--provider', 'no-such-provider'], { env: t.env, timeoutMs: 90_000 });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no provider named "no-such-provider"');
    expect(t.sandbox.store.users.size).toBe(usersBefore);
    const r = await spawnCli(['smoke', '--provider', 'se-test-eid-failing', '--junit', join(dir, 'j.xml'), '--keep'], {
      env: t.env,
      timeoutMs: 90_000,
    });
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(
      /error: smoke check "connect test provider" failed: credentials ended in AUTHENTICATION_ERROR/,
    );
    const results = JSON.parse(r.stdout) as Array<{ name: string; status: string; detail: string }>;
    const by = Object.fromEntries(results.map((x) => [x.name, x]));
    expect(by.providers!.status).toBe('passed');
    expect(by['connect test provider']!.status).toBe('failed');
    expect(by.accounts!.status).toBe('failed');
    expect(by['push and read back']!.status).toBe('passed');
    expect(by.cleanup!.status).toBe('skipped');
    expect(t.sandbox.store.users.size).toBeGreaterThan(usersBefore);
    expect(readFileSync(join(dir, 'j.xml'), 'utf8')).toMatch(
      /<failure message="credentials ended in AUTHENTICATION_ERROR/,
    );
  }, 120_000);
});
