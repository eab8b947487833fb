import { readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, spawnCli, tempDir, removeDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { issueCode } from '../../src/sandbox/routes/oauth.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

/** An environment with only the base URL and a fresh config dir: credentials must come from the profile. */
function bareEnv(): Record<string, string> {
  return { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: t.sandbox.baseUrl };
}

const mode = (f: string) => statSync(f).mode & 0o777;

describe('auth login, status, logout and the profile files', () => {
  test('login checks the credentials, stores them 0600, and later commands use them', async () => {
    const env = bareEnv();
    const bad = await runCli(['auth', 'login', '--client-id', t.sandbox.clientId, '--client-secret-stdin'], {
      env,
      stdin: 'not-the-secret\n',
    });
    expect(bad.code).toBe(3);
    expect(bad.stderr).not.toContain('not-the-secret');
    const ok = await runCli(['auth', 'login', '--client-id', t.sandbox.clientId, '--client-secret-stdin'], {
      env,
      stdin: `${t.sandbox.clientSecret}\n`,
    });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(/accepted/);
    const file = join(env.BANKCTL_CONFIG_DIR, 'config.json');
    expect(mode(file)).toBe(0o600);
    expect(mode(env.BANKCTL_CONFIG_DIR)).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default['client-id']).toBe(t.sandbox.clientId);
    const created = await runCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env });
    expect(created.code).toBe(0);
    expect(mode(join(env.BANKCTL_CONFIG_DIR, 'tokens.json'))).toBe(0o600);
    const status = await runCli(['auth', 'status', '-o', 'json'], { env });
    const s = JSON.parse(status.stdout);
    expect(s).toMatchObject({
      profile: 'default',
      clientId: t.sandbox.clientId,
      clientIdSource: 'profile',
      clientSecret: 'set',
    });
    expect(s.tokens).toEqual([expect.objectContaining({ kind: 'client', scope: 'user:create', expired: false })]);
    expect(status.stdout).not.toContain(t.sandbox.clientSecret);
    // csv: one row in words (the acting user by its id, the tokens counted), no JSON text in a cell
    const userId = JSON.parse(created.stdout).user_id as string;
    const csv = await runCli(['auth', 'status', '--user', userId, '-o', 'csv'], { env });
    const [header, row] = csv.stdout.split('\r\n').map((l) => l.split(','));
    expect(row![header!.indexOf('user')]).toBe(userId);
    expect(row![header!.indexOf('tokens')]).toBe('1 cached');
    expect(csv.stdout).not.toMatch(/[{[]/);
    const out = await runCli(['auth', 'logout'], { env });
    expect(out.code).toBe(0);
    // what went, by name: it said only "(1 cached token removed)", not that the client secret went too
    expect(out.stderr).toBe(
      'logged out of profile "default": removed its client-id and client-secret, and 1 cached token\n',
    );
    const after = JSON.parse((await runCli(['auth', 'status', '-o', 'json'], { env })).stdout);
    expect(after).toMatchObject({ clientId: null, clientSecret: 'not set', tokens: [] });
    removeDir(env.BANKCTL_CONFIG_DIR);
  });

  test('a profile that was never saved is refused, not run with the defaults; login and config save it', async () => {
    const env: Record<string, string> = {
      ...bareEnv(),
      BANKCTL_CLIENT_ID: t.sandbox.clientId,
      BANKCTL_CLIENT_SECRET: t.sandbox.clientSecret,
    };
    // a typo of "prod": before, this created a user in the sandbox the environment pointed at, exit 0
    const typo = await runCli(['users', 'create', '--market', 'SE', '--profile', 'prdo'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--profile: no profile named "prdo" is saved (saved: default)');
    expect(typo.stdout).toBe('');
    const fromEnv = await runCli(['auth', 'token', '--scope', 'user:create'], {
      env: { ...env, BANKCTL_PROFILE: 'prdo' },
    });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('BANKCTL_PROFILE: no profile named "prdo"');
    // config explain still explains it, with a warning
    const explain = await runCli(['config', 'explain', '-o', 'json', '--profile', 'prod'], { env });
    expect(explain.code).toBe(0);
    expect(explain.stderr).toContain('profile "prod" is not saved');
    // auth login saves it; then it is used
    const login = await runCli(['auth', 'login', '--profile', 'prod'], { env });
    expect(login.code).toBe(0);
    const token = await runCli(['auth', 'token', '--scope', 'user:create', '--profile', 'prod'], { env });
    expect(token.code).toBe(0);
    expect(token.stdout.trim().length).toBeGreaterThan(10);
    // and config set saves one too; `default` needs no saving
    expect((await runCli(['config', 'set', 'output', 'json', '--profile', 'ci'], { env })).code).toBe(0);
    expect((await runCli(['auth', 'token', '--scope', 'user:create', '--profile', 'ci'], { env })).code).toBe(0);
    expect((await runCli(['auth', 'token', '--scope', 'user:create', '--profile', 'default'], { env })).code).toBe(0);
    // a mistyped name is not saved by the commands that only remove things
    for (const args of [
      ['auth', 'logout', '--profile', 'ghost'],
      ['config', 'unset', 'output', '--profile', 'ghost'],
    ]) {
      const r = await runCli(args, { env });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('no profile named "ghost" is saved');
    }
    const file = JSON.parse(readFileSync(join(env.BANKCTL_CONFIG_DIR!, 'config.json'), 'utf8'));
    expect(Object.keys(file.profiles).sort()).toEqual(['ci', 'prod']);
    // and config set refuses a value that would break every later command of the profile
    for (const [key, value, says] of [
      ['timeout', '0', 'timeout must be a number of seconds from 0.001 to 86400, got "0"'],
      ['timeout', '99999999999', 'timeout must be a number of seconds from 0.001'],
      ['retries', '1e9', 'retries must be a whole number from 0 to'],
      ['max-response-size', '1', 'max-response-size must be a size from 1KiB to 512MiB'],
    ]) {
      const r = await runCli(['config', 'set', key!, value!, '--profile', 'ci'], { env });
      expect(r.code, `${key} ${value}`).toBe(2);
      expect(r.stderr).toContain(says);
    }
    expect((await runCli(['auth', 'token', '--scope', 'user:create', '--profile', 'ci'], { env })).code).toBe(0);
    // with "prod" saved, the same typo is pointed at it
    const again = await runCli(['users', 'create', '--market', 'SE', '--profile', 'prdo'], { env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('no profile named "prdo" is saved; did you mean "prod"? (saved: default, prod, ci)');
    removeDir(env.BANKCTL_CONFIG_DIR);
  });

  test('a secret given as a flag works but warns that it is visible in the process list', async () => {
    const env = bareEnv();
    const r = await runCli(
      ['auth', 'login', '--client-id', t.sandbox.clientId, '--client-secret', t.sandbox.clientSecret],
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/--client-secret on the command line is visible .* use --client-secret-stdin/);
  });

  test('client tokens are cached per scope set; a refused cached token is dropped and fetched again once', async () => {
    const env = { ...bareEnv(), BANKCTL_CLIENT_ID: t.sandbox.clientId, BANKCTL_CLIENT_SECRET: t.sandbox.clientSecret };
    const a = (await runCli(['auth', 'token', '--scope', 'user:create'], { env })).stdout.trim();
    const b = (await runCli(['auth', 'token', '--scope', 'user:create'], { env })).stdout.trim();
    expect(a).toBe(b);
    const c = (await runCli(['auth', 'token', '--scope', 'user:create,authorization:grant'], { env })).stdout.trim();
    expect(c).not.toBe(a);
    // the service forgets the token (as after a restart): the CLI drops it and retries once
    t.sandbox.store.tokens.delete(a);
    const r = await runCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env });
    expect(r.code).toBe(0);
    const d = (await runCli(['auth', 'token', '--scope', 'user:create'], { env })).stdout.trim();
    expect(d).not.toBe(a);
  });

  test('a refused cached client token behind a user token is dropped too: the user command recovers', async () => {
    const env = { ...t.env, BANKCTL_CONFIG_DIR: tempDir() };
    const userId = JSON.parse(
      (await runCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env })).stdout,
    ).user_id;
    const first = await runCli(['accounts', 'list', '--user', userId, '-o', 'json'], { env });
    expect(first.code).toBe(0);
    // the service forgets both cached tokens (a restart, a reset, a revocation): the user token's 401
    // leads to a grant with the cached client token, which is refused as well
    const cached = JSON.parse(readFileSync(join(env.BANKCTL_CONFIG_DIR, 'tokens.json'), 'utf8'));
    const tokens = JSON.stringify(cached)
      .match(/"accessToken":"([^"]+)"/g)!
      .map((m) => m.slice(15, -1));
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    for (const tok of tokens) t.sandbox.store.tokens.delete(tok);
    const again = await runCli(['accounts', 'list', '--user', userId, '-o', 'json', '-v'], { env });
    expect(again.stderr).toMatch(
      /authorization-grant -> 401[\s\S]*oauth\/token -> 200[\s\S]*authorization-grant -> 200/,
    );
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    // and the next run is back on cached tokens
    const third = await runCli(['accounts', 'list', '--user', userId, '-v'], { env });
    expect(third.code).toBe(0);
    expect(third.stderr).not.toMatch(/-> 401/);
  });

  test('auth token with a user in the profile: a client token for client scopes, a user token for the rest', async () => {
    const env = { ...t.env, BANKCTL_CONFIG_DIR: tempDir() };
    expect((await runCli(['users', 'create', '--market', 'SE', '--use', '-q'], { env })).code).toBe(0);
    const kind = async (args: string[]) => {
      const r = await runCli(['auth', 'token', ...args], { env });
      expect(r.code, r.stderr).toBe(0);
      return t.sandbox.store.tokens.get(r.stdout.trim())?.kind;
    };
    // the README's first steps: users create --use, then a token to create users with
    expect(await kind(['--scope', 'user:create'])).toBe('client');
    expect(await kind(['--scope', 'webhook-endpoints'])).toBe('client');
    expect(await kind(['--scope', 'accounts:read'])).toBe('user');
    expect(await kind([])).toBe('user');
    // a user named on the command line is always a user token
    const userId = JSON.parse(readFileSync(join(env.BANKCTL_CONFIG_DIR, 'config.json'), 'utf8')).profiles.default.user;
    expect(await kind(['--scope', 'user:read', '--user', userId])).toBe('user');
  });

  test('user tokens: grant + exchange with exactly the scopes asked for', async () => {
    const env = { ...t.env, BANKCTL_CONFIG_DIR: tempDir() };
    const userId = JSON.parse(
      (await runCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env })).stdout,
    ).user_id;
    const tok = (
      await runCli(['auth', 'token', '--user', userId, '--scope', 'accounts:read,user:delete'], { env })
    ).stdout.trim();
    const rec = t.sandbox.store.tokens.get(tok)!;
    expect(rec.kind).toBe('user');
    expect(rec.userId).toBe(userId);
    expect([...rec.scopes].sort()).toEqual(['accounts:read', 'user:delete']);
    // users delete asks for user:delete only
    const del = await runCli(['users', 'delete', '--user', userId, '--yes'], { env });
    expect(del.code).toBe(0);
    expect(t.sandbox.store.users.has(userId)).toBe(false);
  });

  test('auth grant, exchange, refresh and revoke-all', async () => {
    const env = { ...t.env, BANKCTL_CONFIG_DIR: tempDir() };
    const userId = JSON.parse(
      (await runCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env })).stdout,
    ).user_id;
    const g = await runCli(['auth', 'grant', '--user', userId, '--scope', 'accounts:read', '-o', 'json'], { env });
    expect(g.code).toBe(0);
    const code = JSON.parse(g.stdout).code;
    const ex = await runCli(['auth', 'exchange', code, '-o', 'json'], { env });
    expect(ex.code).toBe(0);
    expect(JSON.parse(ex.stdout)).toMatchObject({ token_type: 'bearer', expires_in: 7200, scope: 'accounts:read' });
    const reused = await runCli(['auth', 'exchange', code], { env });
    expect(reused.code).toBe(2);
    expect(reused.stderr).toMatch(/HTTP 400: authorization code not valid/);
    expect(reused.stderr).not.toContain(code);

    const delegated = await runCli(
      [
        'auth',
        'grant',
        '--user',
        userId,
        '--scope',
        'credentials:read',
        '--delegate',
        '--id-hint',
        'Łukasz',
        '--actor-client-id',
        'x',
      ],
      { env },
    );
    expect(delegated.code).toBe(2);
    expect(delegated.stderr).toMatch(/ISO-8859-1/);
    const delegatedOk = await runCli(
      [
        'auth',
        'grant',
        '--user',
        userId,
        '--scope',
        'credentials:read',
        '--delegate',
        '--id-hint',
        'Åsa',
        '--actor-client-id',
        'df05e4b379934cd09963197cc855bfe9',
        '-o',
        'json',
      ],
      { env },
    );
    expect(delegatedOk.code).toBe(0);

    // a code of the hosted flow exchanges to a token with a refresh token; auth refresh uses it
    const linkCode = issueCode(t.sandbox.store, {
      clientId: t.sandbox.clientId,
      userId,
      scopes: ['accounts:read'],
      withRefresh: true,
    });
    const linked = JSON.parse((await runCli(['auth', 'exchange', linkCode, '-o', 'json'], { env })).stdout);
    expect(linked.refresh_token).toBeTruthy();
    const refreshed = await runCli(['auth', 'refresh', '-o', 'json'], { env });
    expect(refreshed.code).toBe(0);
    expect(JSON.parse(refreshed.stdout).access_token).not.toBe(linked.access_token);

    const revoked = await runCli(['auth', 'revoke-all', '--user', userId, '--yes'], { env });
    expect(revoked.code).toBe(0);
    expect([...t.sandbox.store.tokens.values()].filter((x) => x.userId === userId)).toEqual([]);
    expect((await runCli(['auth', 'refresh'], { env })).code).toBe(2);
  });
});

describe('config and profiles', () => {
  test('set/get/unset/use, precedence flag > env > profile, and explain says where each came from', async () => {
    const env = bareEnv();
    expect(
      (
        await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:9'], {
          env: { BANKCTL_CONFIG_DIR: env.BANKCTL_CONFIG_DIR },
        })
      ).code,
    ).toBe(0);
    expect(
      (await runCli(['config', 'get', 'base-url'], { env: { BANKCTL_CONFIG_DIR: env.BANKCTL_CONFIG_DIR } })).stdout,
    ).toBe('http://127.0.0.1:9\n');
    const explain = async (args: string[], e: Record<string, string>) =>
      Object.fromEntries(
        JSON.parse((await runCli(['config', 'explain', '-o', 'json', ...args], { env: e })).stdout).map(
          (r: { key: string; value: string; source: string }) => [r.key, r],
        ),
      );
    expect((await explain([], { BANKCTL_CONFIG_DIR: env.BANKCTL_CONFIG_DIR }))['base-url']).toMatchObject({
      value: 'http://127.0.0.1:9',
      source: 'profile default',
    });
    expect((await explain([], { ...env }))['base-url']).toMatchObject({
      value: t.sandbox.baseUrl,
      source: 'env BANKCTL_BASE_URL',
    });
    expect((await explain(['--base-url', 'http://127.0.0.1:7'], { ...env }))['base-url']).toMatchObject({
      value: 'http://127.0.0.1:7',
      source: 'flag',
    });
    expect((await explain([], { ...env }))['timeout']).toMatchObject({ value: '30', source: 'default' });

    expect((await runCli(['config', 'use', 'prod', '--create'], { env })).code).toBe(0);
    expect((await runCli(['config', 'set', 'output', 'csv'], { env })).code).toBe(0);
    const list = JSON.parse((await runCli(['config', 'list', '--all-profiles', '-o', 'json'], { env })).stdout);
    expect(list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ profile: 'default', key: 'base-url' }),
        expect.objectContaining({ profile: 'prod', key: 'output', value: 'csv' }),
      ]),
    );
    expect((await runCli(['config', 'unset', 'output'], { env })).code).toBe(0);
    expect((await runCli(['config', 'get', 'output'], { env })).code).toBe(2);
    expect((await runCli(['config', 'set', 'colour', 'x'], { env })).code).toBe(2);
    expect((await runCli(['config', 'set', 'base-url', 'ftp://x'], { env })).code).toBe(2);
  });

  test('secrets are masked in config list', async () => {
    const env = bareEnv();
    const set = await runCli(['config', 'set', 'client-secret', 'abcdefghijklmnop'], { env });
    expect(set.stderr).toMatch(/visible in the process list/);
    const r = await runCli(['config', 'list', '-o', 'json'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('client-secret');
    expect(r.stdout).not.toContain('abcdefghijklmnop');
  });

  test('a corrupt config file is a clear error naming the file, exit 2, and is never overwritten', async () => {
    const env = bareEnv();
    const file = join(env.BANKCTL_CONFIG_DIR, 'config.json');
    writeFileSync(file, '{"profiles": {"default": {"base-url": ', { mode: 0o600 });
    for (const args of [
      ['config', 'set', 'output', 'json'],
      ['users', 'create', '--market', 'SE'],
      ['auth', 'status'],
    ]) {
      const r = await spawnCli(args, { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(file);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(readFileSync(file, 'utf8')).toBe('{"profiles": {"default": {"base-url": ');
  });

  test('a config file or token cache that is not JSON: the error says line:column, as an editor goes to it', async () => {
    // it said "at position 57", a count of characters no editor shows
    const env = bareEnv();
    const config = join(env.BANKCTL_CONFIG_DIR, 'config.json');
    writeFileSync(config, '{\n  "profiles": {\n    "default": {\n      "output": "json",\n    }\n  }\n}\n', {
      mode: 0o600,
    });
    const r = await runCli(['auth', 'status'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the config file ${config}:5:5 is not valid JSON: Expected double-quoted property name`);
    expect(r.stderr).not.toMatch(/position/);
    // node 20 gives no position for an unexpected token, only a piece of the file (a secret's, maybe)
    writeFileSync(config, '{}', { mode: 0o600 });
    const tokens = join(env.BANKCTL_CONFIG_DIR, 'tokens.json');
    writeFileSync(tokens, '{\n  "default": {\n    "k": {"accessToken": sekrit-token-value}\n  }\n}\n', {
      mode: 0o600,
    });
    const t = await runCli(['auth', 'status'], { env });
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(new RegExp(`the token cache ${tokens}:3:26 is not valid JSON: Unexpected token`));
    expect(t.stderr).not.toContain('sekrit');
    expect(t.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('an unreadable config file is reported, not reset', async () => {
    if (process.getuid?.() === 0) {
      // root reads anything: use a directory in the file's place instead
      const env = bareEnv();
      const { mkdirSync } = await import('node:fs');
      mkdirSync(join(env.BANKCTL_CONFIG_DIR, 'config.json'));
      const r = await runCli(['config', 'list'], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('config.json');
      return;
    }
    const env = bareEnv();
    const file = join(env.BANKCTL_CONFIG_DIR, 'config.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0);
    const r = await runCli(['config', 'list'], { env });
    expect(r.code).toBe(2);
  });

  test('a config file readable by others is tightened to 0600', async () => {
    const env = bareEnv();
    const file = join(env.BANKCTL_CONFIG_DIR, 'config.json');
    writeFileSync(file, '{"profiles":{}}', { mode: 0o644 });
    chmodSync(file, 0o644);
    await runCli(['config', 'set', 'output', 'json'], { env });
    expect(mode(file)).toBe(0o600);
  });
});

describe('--verbose trace', () => {
  test('method, URL, status and time on stderr, with every secret redacted', async () => {
    const env = { ...t.env, BANKCTL_CONFIG_DIR: tempDir() };
    const userId = JSON.parse(
      (await runCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env })).stdout,
    ).user_id;
    const r = await spawnCli(['auth', 'token', '--user', userId, '--scope', 'accounts:read', '--verbose'], { env });
    expect(r.code).toBe(0);
    const token = r.stdout.trim();
    expect(r.stderr).toMatch(/\* POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/oauth\/token -> 200 \(\d+ ms\)/);
    expect(r.stderr).toMatch(/\* POST .*\/api\/v1\/oauth\/authorization-grant -> 200/);
    for (const secret of [t.sandbox.clientSecret, token]) expect(r.stderr).not.toContain(secret);
    const codes = [...t.sandbox.store.codes.keys()];
    for (const c of codes) expect(r.stderr).not.toContain(c);
    const basic = await spawnCli(['api', 'GET', '/version', '--verbose', '--basic', 'someone:basic-secret-xyz'], {
      env: { ...env, BANKCTL_DEBUG: '1' },
    });
    expect(basic.stderr).not.toContain('basic-secret-xyz');
  });
});

describe('HTTP Basic with an empty token', () => {
  // `--basic "$EXT_ID:$USER_TOKEN"` with USER_TOKEN unset: it was sent and answered 401 (exit 3)
  const accountsRequests = () =>
    t.sandbox.context.bench!.requests.entries().entries.filter((x) => x.path === '/api/v1/accounts/list').length;

  test.each([
    ['--basic', { args: ['--basic', 'alice:'], env: {} }],
    ['BANKCTL_BASIC', { args: [], env: { BANKCTL_BASIC: 'alice:' } }],
  ])('from %s: exit 2 naming the empty token, nothing sent', async (_, given) => {
    const before = accountsRequests();
    const r = await runCli(['accounts', 'list', ...given.args], { env: { ...bareEnv(), ...given.env } });
    expect(r.stderr).toContain('--basic must be USER_ID:TOKEN: the TOKEN after the colon is empty');
    expect(r.code).toBe(2);
    expect(accountsRequests()).toBe(before);
  });

  test('config set basic USER_ID: is refused, as USER_ID alone is', async () => {
    const r = await runCli(['config', 'set', 'basic', 'alice:'], { env: bareEnv() });
    expect(r.stderr).toContain('basic must be USER_ID:TOKEN: the TOKEN after the colon is empty');
    expect(r.code).toBe(2);
  });
});
