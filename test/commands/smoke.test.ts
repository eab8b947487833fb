import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { newCmdSmoke } from '../../src/commands/smoke.js';
import { tempDir } from '../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../helpers/commands.js';

const sb = useSandbox();
const dir = tempDir();
let usersBefore = 0;

describe('smoke: flags', () => {
  optionCases('smoke', newCmdSmoke, [
    {
      name: 'defaults',
      args: [],
      options: { provider: 'se-test-password', market: 'SE', keep: false, connectTimeoutS: 120 },
    },
    {
      name: 'a market upper-cased, reports, --keep',
      args: ['--market', 'gb', '--junit', 'j.xml', '--report', 'r.json', '--keep'],
      options: { market: 'GB', junit: 'j.xml', report: 'r.json', keep: true },
    },
    {
      name: 'a connect timeout that is not a number',
      args: ['--connect-timeout', 'long'],
      code: 2,
      stderr: '--connect-timeout must be a whole number',
    },
    {
      name: 'an empty provider name',
      args: ['--provider', ' '],
      code: 2,
      stderr: '--provider: give a test provider name',
    },
  ]);
});

describe('smoke: output', () => {
  cliCases('smoke', () => sb.t.env, [
    {
      name: 'client credentials refused: exit 9 naming the check, its dependants skipped, the reports written',
      args: ['--junit', join(dir, 'j.xml'), '--report', join(dir, 'r.json')],
      env: { BANKCTL_CLIENT_SECRET: 'wrong-secret' },
      code: 9,
      stdout: (out) => {
        const results = JSON.parse(out) as Array<{ name: string; status: string }>;
        expect(results[0]).toMatchObject({ name: 'client token', status: 'failed' });
        // what needs a client token does not pass; the connector checks (connector token) still run
        expect(results.find((r) => r.name === 'create user')?.status).not.toBe('passed');
      },
      stderr: [/error: smoke check "client token" failed/, (err) => expect(err).not.toContain('wrong-secret')],
      after: () => {
        expect(readFileSync(join(dir, 'j.xml'), 'utf8')).toMatch(
          /<testsuite name="bankctl smoke" tests="\d+" failures="[1-9]/,
        );
        expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).baseUrl).toBe(sb.t.sandbox.baseUrl);
      },
    },
    {
      // before, the whole suite ran (a user made, a bank connected) and then the write failed
      name: 'a report that cannot be written is exit 2 before any check runs',
      before: () => void (usersBefore = sb.t.sandbox.store.users.size),
      args: ['--junit', join(dir, 'no-such-dir', 'j.xml')],
      code: 2,
      stdout: (out) => expect(out).toBe(''),
      stderr: /cannot write the JUnit report .*no-such-dir.*: no such file or directory \(ENOENT\)/,
      after: () => {
        expect(sb.t.sandbox.store.users.size).toBe(usersBefore);
      },
    },
  ]);
});

describe('smoke: a protected profile', () => {
  /** A config directory whose current profile "prod" names the sandbox and is protected. */
  function protectedEnv(): Record<string, string> {
    const configDir = tempDir();
    const prod = { 'base-url': sb.t.sandbox.baseUrl, protected: 'true' };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles: { prod }, current: 'prod' }), {
      mode: 0o600,
    });
    return { ...sb.t.env, BANKCTL_CONFIG_DIR: configDir };
  }

  let env: Record<string, string> = {};
  cliCases('smoke', () => env, [
    {
      // before, the suite made and deleted users and bank connections on it with no question asked
      name: 'without --yes and without a terminal: exit 2 naming --yes, nothing created',
      before: () => {
        env = protectedEnv();
        usersBefore = sb.t.sandbox.store.users.size;
      },
      args: [],
      code: 2,
      stdout: (out) => expect(out).toBe(''),
      stderr: /profile "prod" is protected: bankctl smoke creates and deletes test users.*refusing without --yes/,
      after: () => expect(sb.t.sandbox.store.users.size).toBe(usersBefore),
    },
    {
      name: 'with --yes the suite runs',
      before: () => void (env = protectedEnv()),
      args: ['--yes', '--connect-timeout', '30'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toContainEqual(expect.objectContaining({ name: 'cleanup' })),
    },
  ]);
});

describe('smoke: cleanup says what it did', () => {
  type Result = { name: string; status: string; detail: string };
  const cleanupOf = (out: string) => (JSON.parse(out) as Result[]).find((r) => r.name === 'cleanup');

  /** The sandbox behind a proxy that answers every authorization grant 500: "grant and exchange" fails. */
  let proxy: Server | undefined;
  let proxyUrl = '';
  afterAll(async () => new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve())));
  async function noGrants(): Promise<void> {
    const target = new URL(sb.t.sandbox.baseUrl);
    proxy = createServer((req, res) => {
      if (req.url?.startsWith('/api/v1/oauth/authorization-grant')) {
        req.resume();
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"errorMessage":"grants are down"}');
        return;
      }
      const up = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (r) => {
          res.writeHead(r.statusCode!, r.headers);
          r.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  }

  cliCases('smoke', () => sb.t.env, [
    {
      // before: "cleanup passed: test users removed" when no check had created anything
      name: 'nothing created (client and connector refused): cleanup is skipped, not passed',
      args: [],
      env: { BANKCTL_CLIENT_SECRET: 'wrong-secret', BANKCTL_CONNECTOR_TOKEN: 'wrong-token' },
      code: 9,
      stdout: (out) => expect(cleanupOf(out)).toMatchObject({ status: 'skipped', detail: 'nothing was created' }),
    },
  ]);

  cliCases('smoke', () => ({ ...sb.t.env, BANKCTL_BASE_URL: proxyUrl }), [
    {
      // before: the user was left on the service and cleanup passed with "test users removed"
      name: 'a user made but no user token had: cleanup fails naming the user left in place',
      before: async () => {
        await noGrants();
        usersBefore = sb.t.sandbox.store.users.size;
      },
      args: ['--connect-timeout', '5'],
      code: 9,
      stdout: (out) => {
        const created = (JSON.parse(out) as Result[]).find((r) => r.name === 'create user')!;
        expect(created.status).toBe('passed');
        const userId = created.detail.replace('user ', '');
        expect(sb.t.sandbox.store.users.has(userId)).toBe(true);
        expect(cleanupOf(out)).toMatchObject({ status: 'failed' });
        expect(cleanupOf(out)!.detail).toContain(`user ${userId} left in place`);
      },
    },
  ]);
});

describe('smoke: secrets in the reports', () => {
  cliCases(
    'smoke',
    () => ({ ...sb.t.env, BANKCTL_BASE_URL: sb.t.sandbox.baseUrl.replace('://', '://smoke:hunter2pw@') }),
    [
      {
        // the report is a CI artifact: it held the base URL's password as given
        name: 'a password in the base URL is not written into the report',
        args: () => ['--report', join(dir, 'pw.json'), '--connect-timeout', '30'],
        code: 0,
        after: () => {
          const text = readFileSync(join(dir, 'pw.json'), 'utf8');
          expect(text).not.toContain('hunter2pw');
          expect(JSON.parse(text).baseUrl).toMatch(/^http:\/\/smoke:\*\*\*@127\.0\.0\.1:/);
        },
      },
    ],
  );
});
