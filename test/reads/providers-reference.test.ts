// Providers as the vendor's reference serves them: GET /api/v1/providers takes a `name` but no
// `market`, GET /api/v1/providers/{market} takes a market (a provider's name there is a 400) and no
// `name`. The CLI holds each answer to the filters asked for, and looks a provider up by name the
// ways the reference allows. A node:http server on loopback answers like that; the real CLI runs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { scriptedServer, type Seen } from '../helpers/scripted-server.js';

const provider = (name: string, market: string) => ({
  name,
  market,
  displayName: name,
  type: 'BANK',
  credentialsType: 'PASSWORD',
  fields: [
    { name: 'username', description: 'Username', masked: false },
    { name: 'password', description: 'Password', masked: true },
  ],
});
const PROVIDERS = [provider('se-bank-a', 'SE'), provider('se-bank-b', 'SE'), provider('no-bank-c', 'NO')];

let server: { url: string; seen: Seen[]; close(): Promise<void> };
beforeAll(async () => {
  server = await scriptedServer(() => (req, res, body) => {
    const url = new URL(req.url!, 'http://x');
    const json = (status: number, doc: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
    const market = /^\/api\/v1\/providers\/([^/]+)$/.exec(url.pathname)?.[1];
    if (url.pathname === '/api/v1/providers') {
      const name = url.searchParams.get('name');
      return json(200, { providers: PROVIDERS.filter((p) => name === null || p.name === name) });
    }
    if (market !== undefined) {
      if (!/^[A-Z]{2}$/.test(market)) return json(400, { errorMessage: `invalid market ${market}` });
      return json(200, { providers: PROVIDERS.filter((p) => p.market === market) });
    }
    if (url.pathname === '/api/v1/credentials/c1' && req.method === 'GET')
      return json(200, { id: 'c1', providerName: 'se-bank-a', status: 'UPDATED', fields: { username: 'anna' } });
    if (url.pathname === '/api/v1/credentials/c1' && req.method === 'PUT')
      return json(200, { id: 'c1', providerName: 'se-bank-a', status: 'UPDATING', ...JSON.parse(body) });
    return json(404, { errorMessage: 'not found' });
  });
});
afterAll(() => server.close());

const env = (token = true) => ({
  BANKCTL_BASE_URL: server.url,
  BANKCTL_CONFIG_DIR: tempDir(),
  BANKCTL_RETRIES: '0',
  ...(token ? { BANKCTL_TOKEN: 'user-token-1' } : {}),
});
const names = (stdout: string) => (JSON.parse(stdout) as { name: string }[]).map((p) => p.name);

describe('providers list holds the answer to its filters', () => {
  test('--market with a user: the user list ignores market, the CLI does not', async () => {
    const r = await runCli(['providers', 'list', '--market', 'SE', '-o', 'json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(names(r.stdout)).toEqual(['se-bank-a', 'se-bank-b']);
  });

  test("--name without a user: a market's list ignores name, the CLI does not", async () => {
    const r = await runCli(['providers', 'list', '--market', 'SE', '--name', 'se-bank-b', '-o', 'json'], {
      env: env(false),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(names(r.stdout)).toEqual(['se-bank-b']);
  });
});

describe('credentials update without --field reads the provider by name', () => {
  test('its fields come from the named provider, not from /providers/{name} (a 400 there)', async () => {
    const dir = tempDir();
    const answers = join(dir, 'answers.json');
    writeFileSync(answers, JSON.stringify({ password: 'new-secret' }));
    const before = server.seen.length;
    const r = await runCli(['credentials', 'update', 'c1', '--answers', answers, '-o', 'json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const put = server.seen.slice(before).find((s) => s.method === 'PUT');
    // the username kept from the credentials, the password from the answers
    expect(JSON.parse(put!.body)).toEqual({ fields: { username: 'anna', password: 'new-secret' } });
    expect(server.seen.slice(before).some((s) => s.url.startsWith('/api/v1/providers/se-bank-a'))).toBe(false);
  });
});
