// Against `sandbox start --tls`: refused without the CA, accepted with it, pinned right and wrong,
// through a CONNECT proxy and around it with NO_PROXY.
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { startProxy } from '../helpers/proxy.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox({ tls: { dir: tempDir() } });
});
afterAll(() => t.close());

const call = (env: Record<string, string>, ...extra: string[]) =>
  spawnCli(['api', 'GET', '/version', '--as', 'none', ...extra], { env: { ...t.env, ...env } });

describe('https to the sandbox', () => {
  test('the sandbox serves https with a generated CA, and publishes caFile and pin', () => {
    expect(t.sandbox.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(t.sandbox.caFile).toMatch(/sandbox-ca\.pem$/);
    expect(t.sandbox.pin).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });

  test('a self-signed server is refused with exit 8 and a message naming --ca-file', async () => {
    const r = await call({});
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/TLS certificate is not trusted/);
    expect(r.stderr).toMatch(/--ca-file/);
  });

  test('--ca-file, BANKCTL_CA_FILE and NODE_EXTRA_CA_CERTS are trusted in addition to the system CAs', async () => {
    expect((await call({}, '--ca-file', t.sandbox.caFile!)).code).toBe(0);
    expect((await call({ BANKCTL_CA_FILE: t.sandbox.caFile! })).code).toBe(0);
    const r = await call({ NODE_EXTRA_CA_CERTS: t.sandbox.caFile! });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).version).toBeTruthy();
    const missing = await call({}, '--ca-file', '/nonexistent/ca.pem');
    expect(missing.code).toBe(2);
  });

  test('a whole OAuth journey works over https', async () => {
    const r = await spawnCli(['users', 'create', '--market', 'SE', '-o', 'json'], {
      env: { ...t.env, BANKCTL_CA_FILE: t.sandbox.caFile! },
    });
    expect(r.code).toBe(0);
    const userId = JSON.parse(r.stdout).user_id;
    const tok = await spawnCli(['auth', 'token', '--user', userId, '--scope', 'accounts:read'], {
      env: { ...t.env, BANKCTL_CA_FILE: t.sandbox.caFile! },
    });
    expect(tok.code).toBe(0);
  });

  test('pinning: the right pin passes (sha256/ prefix and rotation lists too); a wrong one is refused showing the presented pin', async () => {
    const env = { BANKCTL_CA_FILE: t.sandbox.caFile! };
    expect((await call(env, '--pin', t.sandbox.pin!)).code).toBe(0);
    expect((await call({ ...env, BANKCTL_PIN: `sha256/${t.sandbox.pin!}` })).code).toBe(0);
    const wrongPin = 'A'.repeat(43) + '=';
    expect((await call(env, '--pin', `${wrongPin},${t.sandbox.pin!}`)).code).toBe(0);
    const r = await call(env, '--pin', wrongPin);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(`the server presented sha256/${t.sandbox.pin}`);
    expect(r.stderr).not.toMatch(/retrying/);
    expect((await call(env, '--pin', 'not-a-pin')).code).toBe(2);
  });
});

describe('proxies', () => {
  test('HTTPS_PROXY tunnels through CONNECT, --verbose says so; NO_PROXY bypasses it', async () => {
    const proxy = await startProxy();
    try {
      const port = new URL(t.sandbox.baseUrl).port;
      const env = { BANKCTL_CA_FILE: t.sandbox.caFile!, HTTPS_PROXY: proxy.url };
      const r = await call(env, '--verbose');
      expect(r.code).toBe(0);
      expect(proxy.connects).toEqual([`127.0.0.1:${port}`]);
      expect(r.stderr).toMatch(/via proxy http:\/\/127\.0\.0\.1:\d+/);
      const lower = await call({ BANKCTL_CA_FILE: t.sandbox.caFile!, https_proxy: proxy.url });
      expect(lower.code).toBe(0);
      expect(proxy.connects).toHaveLength(2);
      const bypass = await call({ ...env, NO_PROXY: 'localhost,127.0.0.1' }, '--verbose');
      expect(bypass.code).toBe(0);
      expect(proxy.connects).toHaveLength(2);
      expect(bypass.stderr).not.toMatch(/via proxy/);
    } finally {
      await proxy.close();
    }
  });

  test('a proxy that is down is a network error', async () => {
    const r = await call({ BANKCTL_CA_FILE: t.sandbox.caFile!, HTTPS_PROXY: 'http://127.0.0.1:1' }, '--retries', '0');
    expect(r.code).toBe(8);
  });

  test('a proxy that drops every tunnel, or never answers: --timeout ends the wait, exit 8', async () => {
    for (const mode of ['drop', 'silent'] as const) {
      let connects = 0;
      const sockets = new Set<Socket>();
      const proxy = createNetServer((s) => {
        sockets.add(s);
        s.on('error', () => undefined);
        s.once('data', () => {
          connects++;
          if (mode === 'drop') s.destroy();
        });
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      try {
        const started = Date.now();
        const r = await spawnCli(['transactions', 'list', '--timeout', '1', '--retries', '0'], {
          env: {
            BANKCTL_CONFIG_DIR: tempDir(),
            BANKCTL_BASE_URL: 'https://api.example.invalid',
            BANKCTL_TOKEN: 'tok_proxy_123',
            HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
            NO_PROXY: '',
          },
        });
        expect(r.code, `${mode}: ${r.stderr}`).toBe(8);
        expect(r.stderr).toMatch(/timed out \(see --timeout\)/);
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(connects).toBeGreaterThan(0);
      } finally {
        for (const s of sockets) s.destroy();
        await new Promise((r) => proxy.close(r));
      }
    }
  });
});

describe('a CA file that cannot be used is named by where it came from', () => {
  // each was called "--ca-file", a flag the user never typed, so they looked for it in their command
  const notPem = (dir: string) => {
    const f = join(dir, 'not-a-ca.pem');
    writeFileSync(f, 'hello\n');
    return f;
  };
  const cases: Array<[string, (dir: string) => { env?: Record<string, string>; args?: string[] }, RegExp]> = [
    [
      'a profile setting',
      (dir) => {
        const f = notPem(dir);
        writeFileSync(
          join(dir, 'config.json'),
          JSON.stringify({ profiles: { default: { 'base-url': 'https://127.0.0.1:1', 'ca-file': f } } }),
          { mode: 0o600 },
        );
        return {};
      },
      /^error: profile "default" ca-file: .*not-a-ca\.pem holds no PEM certificate \(`bankctl config set ca-file FILE`/,
    ],
    [
      "the running sandbox's CA (sandbox start --tls)",
      (dir) => {
        writeFileSync(
          join(dir, 'sandbox.json'),
          JSON.stringify({ baseUrl: 'https://127.0.0.1:1', caFile: join(dir, 'sandbox-ca.pem') }),
          { mode: 0o600 },
        );
        return {};
      },
      /^error: the sandbox's CA file: cannot read .*sandbox-ca\.pem: no such file .*restart the sandbox/,
    ],
    [
      'BANKCTL_CA_FILE',
      (dir) => ({ env: { BANKCTL_CA_FILE: notPem(dir) } }),
      /^error: BANKCTL_CA_FILE: .*holds no PEM/,
    ],
    ['--ca-file', (dir) => ({ args: ['--ca-file', notPem(dir)] }), /^error: --ca-file: .*holds no PEM/],
  ];
  test.each(cases)('%s', async (_name, setup, message) => {
    const dir = tempDir();
    chmodSync(dir, 0o700);
    const { env = {}, args = [] } = setup(dir);
    const r = await runCli(['api', 'GET', '/version', '--as', 'none', ...args], {
      env: { BANKCTL_CONFIG_DIR: dir, ...env },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
