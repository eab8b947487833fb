// `auth logout` while this config directory's sandbox runs: commands still work afterwards, with the
// sandbox's own client (the fallback of config/settings.ts), and the notice said only "logged out".
// It now says what still reaches the sandbox and how to end that. Real processes, a real sandbox.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';

const dir = tempDir();
const env = { BANKCTL_CONFIG_DIR: dir };
const cli = (args: string[], stdin?: string) => spawnCli(args, { env, stdin });
let ready: { baseUrl: string; clientId: string; clientSecret: string };
const STILL = 'commands still reach the running sandbox';

beforeAll(async () => {
  const r = await cli(['sandbox', 'start', '--detach', '--port', '0', '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  ready = JSON.parse(r.stdout);
}, 60_000);
afterAll(async () => {
  await cli(['sandbox', 'stop']);
});

describe('auth logout with the sandbox of this config directory running', () => {
  test('the notice says commands still reach the sandbox with its own client, and they do', async () => {
    const login = await cli(
      ['auth', 'login', '--client-id', ready.clientId, '--client-secret-stdin'],
      ready.clientSecret,
    );
    expect(login.code, login.stderr).toBe(0);
    const out = await cli(['auth', 'logout']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain('logged out of profile "default": removed its client-id and client-secret');
    expect(out.stderr).toContain(`${STILL} (${ready.baseUrl}) with its own client; \`bankctl sandbox stop\` ends that`);
    // what the notice claims: a command still answers, from the sandbox, without a login
    const providers = await cli(['providers', 'list', '--market', 'SE', '-o', 'json']);
    expect(providers.code, providers.stderr).toBe(0);
    expect(JSON.parse(providers.stdout).length).toBeGreaterThan(0);
  }, 60_000);

  test('a profile whose base-url is another service: nothing said about the sandbox', async () => {
    await cli(['config', 'set', 'base-url', 'https://api.example.com', '--profile', 'prod']);
    await cli(['config', 'set', 'client-id', 'id-1', '--profile', 'prod']);
    const out = await cli(['auth', 'logout', '--profile', 'prod']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toBe('logged out of profile "prod": removed its client-id\n');
  }, 60_000);

  test('once the sandbox is stopped: nothing said about it', async () => {
    expect((await cli(['sandbox', 'stop'])).code).toBe(0);
    const out = await cli(['auth', 'logout']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).not.toContain(STILL);
  }, 60_000);
});
