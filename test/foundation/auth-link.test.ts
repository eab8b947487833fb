// `auth link` from the CLI's side: the test plays the hosted link service's redirect.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { issueCode } from '../../src/sandbox/routes/oauth.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

interface Running {
  child: ChildProcess;
  url: URL;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

async function startLink(args: string[], env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [BIN, 'auth', 'link', '--no-browser', '--port', '0', ...args], {
    env: { PATH: process.env.PATH, ...env },
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += c));
  const exit = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr!.on('data', (c) => {
      err += c;
      const m = /(http:\/\/\S+\/1\.0\/authorize\/\S+)/.exec(err);
      if (m && /Waiting/.test(err)) resolve(new URL(m[1]!));
    });
    void exit.then(() => reject(new Error(`exited early: ${err}`)));
  });
  return { child, url, stdout: () => out, stderr: () => err, exit };
}

describe('auth link', () => {
  test('prints the authorize URL with a 256-bit state, ignores a wrong state, exchanges the code and stores the refresh token', async () => {
    const env = { ...t.env, BANKCTL_CONFIG_DIR: tempDir() };
    const run = await startLink(
      ['--market', 'SE', '--locale', 'sv_SE', '--provider', 'se-test-password', '--scope', 'accounts:read'],
      env,
    );
    const q = run.url.searchParams;
    expect(run.url.origin + run.url.pathname).toBe(`${t.sandbox.baseUrl}/link/1.0/authorize/`);
    expect(q.get('client_id')).toBe(t.sandbox.clientId);
    expect(q.get('scope')).toBe('accounts:read');
    expect(q.get('market')).toBe('SE');
    expect(q.get('locale')).toBe('sv_SE');
    expect(q.get('input_provider')).toBe('se-test-password');
    const state = q.get('state')!;
    expect(Buffer.from(state, 'base64url').length).toBeGreaterThanOrEqual(16);
    const redirect = new URL(q.get('redirect_uri')!);
    expect(redirect.hostname).toBe('localhost');
    expect(redirect.pathname).toBe('/callback');
    const cb = `http://127.0.0.1:${redirect.port}/callback`;

    const wrong = await fetch(`${cb}?code=stolen&state=not-the-state`);
    expect(wrong.status).toBe(400);

    // the link service would create a temporary user and redirect with a code
    t.sandbox.store.addUser({
      id: 'f00dfeed0000000000000000000000aa',
      market: 'SE',
      locale: 'sv_SE',
      created: Date.now(),
    });
    const code = issueCode(t.sandbox.store, {
      clientId: t.sandbox.clientId,
      userId: 'f00dfeed0000000000000000000000aa',
      scopes: ['accounts:read'],
      withRefresh: true,
    });
    const ok = await fetch(`${cb}?code=${code}&state=${encodeURIComponent(state)}`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toMatch(/You can close this window/);
    expect(await run.exit).toBe(0);
    const token = JSON.parse(run.stdout());
    expect(token).toMatchObject({ token_type: 'bearer', expires_in: 7200, scope: 'accounts:read' });
    expect(token.refresh_token).toBeTruthy();
    expect(run.stderr()).toMatch(/a callback with a wrong state was ignored/);
    const cached = JSON.parse(readFileSync(join(env.BANKCTL_CONFIG_DIR, 'tokens.json'), 'utf8'));
    expect(JSON.stringify(cached)).toContain(token.refresh_token);
  });

  test('an error status from the flow ends in exit 9 with the status, message and credentials', async () => {
    const run = await startLink([], { ...t.env, BANKCTL_CONFIG_DIR: tempDir() });
    const state = run.url.searchParams.get('state')!;
    const port = new URL(run.url.searchParams.get('redirect_uri')!).port;
    const r = await fetch(
      `http://127.0.0.1:${port}/callback?error=AUTHENTICATION_ERROR&message=${encodeURIComponent('Wrong username or password')}&credentials=abc123&state=${encodeURIComponent(state)}`,
    );
    expect(r.status).toBe(200);
    expect(await run.exit).toBe(9);
    expect(run.stderr()).toMatch(
      /error: the link flow ended in AUTHENTICATION_ERROR: Wrong username or password \(credentials abc123\)/,
    );
  });

  test('every error parameter of the callback is reported, stripped of terminal controls (issue 15)', async () => {
    const run = await startLink([], { ...t.env, BANKCTL_CONFIG_DIR: tempDir() });
    const state = run.url.searchParams.get('state')!;
    const port = new URL(run.url.searchParams.get('redirect_uri')!).port;
    const q = new URLSearchParams({
      error: 'AUTHENTICATION_ERROR',
      error_type: 'USER_LOGIN_ERROR',
      error_reason: 'STATIC_CREDENTIALS_INCORRECT',
      message: 'The bank rejected\u001b]0;pwned\u0007 the login',
      tracking_id: 'e1b2c3d4-0000-4000-8000-000000000001',
      provider_name: 'se-demobank-password\u001b[2J',
      credentials: 'abc123',
      state,
    });
    const r = await fetch(`http://127.0.0.1:${port}/callback?${q}`);
    expect(r.status).toBe(200);
    expect(await run.exit).toBe(9);
    const err = run.stderr();
    expect(err).toContain(
      'error: the link flow ended in AUTHENTICATION_ERROR: The bank rejected the login (error_type USER_LOGIN_ERROR, error_reason STATIC_CREDENTIALS_INCORRECT, provider_name se-demobank-password, tracking_id e1b2c3d4-0000-4000-8000-000000000001, credentials abc123)',
    );
    expect(err).not.toMatch(/\u001b\]|\u001b\[2J|\u0007/);
  });

  test('a timeout ends in exit 9; Ctrl-C in 130', async () => {
    const slow = await startLink(['--wait-timeout', '1'], { ...t.env, BANKCTL_CONFIG_DIR: tempDir() });
    expect(await slow.exit).toBe(9);
    expect(slow.stderr()).toMatch(/no callback within 1 s/);
    const run = await startLink([], { ...t.env, BANKCTL_CONFIG_DIR: tempDir() });
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(130);
  });
});
