// Every string from the network is hostile: none of its control characters or escape sequences
// reaches a terminal, in any command or format. A hostile server answers with OSC window titles,
// ESC[2J (clear screen), BEL and the single-byte C1 CSI in ids, keys, values and error text.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, runCli, tempDir } from '../helpers/cli.js';
import { requires, toolPath } from '../helpers/requires.js';

const EVIL = '\x1b]0;pwned\x07\x1b[2J\x07\x9b2J\x1b]52;c;ZXZpbA==\x07\x1bc';
/** What must never reach a terminal: ESC other than colour, BEL, C1 controls. */
const DANGER = /\x1b(?!\[[0-9;]*m)|\x07|[\x80-\x9f]/;

let server: Server;
let base = '';
/** Colour that hides a part of the line (black on black), and a right-to-left override. */
const HIDE = 'Salary \x1b[30;40mFRAUD-FEE 999.00\x1b[0m ok \u202egnp.exe\u202c';
const providers = [{ name: `bank${EVIL}`, displayName: `Bank ${EVIL}`, [`key${EVIL}`]: `v${EVIL}`, note: HIDE }];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    req.resume();
    req.on('end', () => {
      if (url.pathname === '/api/v1/oauth/token')
        return json(200, {
          access_token: 'tok-0123456789',
          token_type: 'bearer',
          expires_in: 1800,
          scope: `user:create${EVIL}`,
        });
      if (url.pathname === '/api/v1/user/create') return json(200, { user_id: `u123${EVIL}`, [`key${EVIL}`]: 'v' });
      // with client credentials, providers list reads the market's list (GET /api/v1/providers takes a user token)
      if (url.pathname === '/api/v1/providers' || url.pathname === '/api/v1/providers/SE')
        return json(200, { providers });
      json(404, { errorMessage: `no such thing ${EVIL}`, errorCode: 'x' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const env = () => ({
  BANKCTL_CONFIG_DIR: tempDir(),
  BANKCTL_BASE_URL: base,
  BANKCTL_CLIENT_ID: 'client-id',
  BANKCTL_CLIENT_SECRET: 'client-secret-value',
  BANKCTL_RETRIES: '0',
  NO_COLOR: '1',
});
const tty = { stdoutIsTTY: true, stdinIsTTY: false } as const;

describe('network text on a terminal', () => {
  test('users create --use: the id in the notice, the output and later `config get user`', async () => {
    const e = env();
    const r = await runCli(['users', 'create', '--market', 'SE', '--use'], { env: e, ...tty });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('now acts as user u123');
    expect(r.stderr).not.toMatch(DANGER);
    expect(r.stdout).toContain('u123');
    expect(r.stdout).not.toMatch(DANGER);
    const got = await runCli(['config', 'get', 'user'], { env: e, ...tty });
    expect(got.stdout).toMatch(/^u123/);
    expect(got.stdout).not.toMatch(DANGER);
  });

  test('table keys and csv headers, as well as cells', async () => {
    for (const args of [
      ['users', 'create', '--market', 'SE', '-o', 'table'],
      ['users', 'create', '--market', 'SE', '-o', 'csv'],
      ['providers', 'list', '--market', 'SE', '-o', 'table'],
      ['providers', 'list', '--market', 'SE', '-o', 'csv'],
    ]) {
      const r = await runCli(args, { env: env(), ...tty });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(args[0] === 'users' ? /key/ : /bank/);
      expect(r.stdout, args.join(' ')).not.toMatch(DANGER);
    }
  });

  test('json and ndjson on a terminal: escaped as \\u001b, \\u009b (the same data, valid JSON)', async () => {
    const r = await runCli(['providers', 'list', '--market', 'SE', '-o', 'json'], { env: env(), ...tty });
    expect(r.stdout).not.toMatch(DANGER);
    expect(r.stdout).toContain('\\u009b2J');
    expect(JSON.parse(r.stdout)).toEqual(providers);
    const nd = await runCli(['providers', 'list', '--market', 'SE', '-o', 'ndjson'], { env: env(), ...tty });
    expect(nd.stdout).not.toMatch(DANGER);
    expect(JSON.parse(nd.stdout)).toEqual(providers[0]);
    // to a pipe the bytes are the service's own
    const piped = await runCli(['providers', 'list', '--market', 'SE', '-o', 'json'], { env: env() });
    expect(piped.stdout).toContain('\x9b2J');
  });

  test('--jq raw strings on a terminal: no colour from the bank, no bidi override (also through `api`)', async () => {
    for (const args of [
      ['providers', 'list', '--market', 'SE', '--jq', '.[0].note'],
      ['api', 'GET', '/api/v1/providers', '--token', 'tok', '--jq', '.providers[0].note'],
    ]) {
      const r = await runCli(args, { env: env(), ...tty });
      expect(r.code, r.stderr).toBe(0);
      // the override shown as its escape, not applied
      expect(r.stdout).toBe('Salary FRAUD-FEE 999.00 ok \\u202egnp.exe\\u202c\n');
      // to a pipe, the bytes as sent
      const piped = await runCli(args, { env: env() });
      expect(piped.stdout).toBe(`${HIDE}\n`);
    }
  });

  test('api on a terminal: a bidi override in the JSON is escaped, not shown', async () => {
    const r = await runCli(['api', 'GET', '/api/v1/providers', '--token', 'tok'], { env: env(), ...tty });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(r.stdout).not.toMatch(DANGER);
  });

  test('error lines: a 404 whose message is hostile; the auth login notice with a hostile scope', async () => {
    // a market the fake service has no list for: its 404 (providers get looks the name up in the list)
    const r = await runCli(['providers', 'list', '--market', 'NO'], { env: env(), ...tty });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('no such thing');
    expect(r.stderr).not.toMatch(DANGER);
    const login = await runCli(['auth', 'login', '--client-id', 'client-id', '--client-secret-stdin'], {
      env: { ...env(), BANKCTL_CLIENT_ID: '', BANKCTL_CLIENT_SECRET: '' },
      stdin: 'client-secret-value\n',
      ...tty,
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain('user:create');
    expect(login.stderr).not.toMatch(DANGER);
  });

  test('auth link: hostile callback parameters in the error line', async () => {
    const child = spawn(process.execPath, [BIN, 'auth', 'link', '--no-browser', '--port', '0', '--scope', 'x'], {
      env: { PATH: process.env.PATH, ...env() },
    });
    let err = '';
    const exit = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    const url = await new Promise<URL>((resolve) =>
      child.stderr.on('data', (c) => {
        err += c;
        const m = /(http:\/\/\S+\/1\.0\/authorize\/\S+)/.exec(err);
        if (m && /Waiting/.test(err)) resolve(new URL(m[1]!));
      }),
    );
    const redirect = new URL(url.searchParams.get('redirect_uri')!);
    const cb = new URL(redirect);
    cb.searchParams.set('state', url.searchParams.get('state')!);
    cb.searchParams.set('error', `USER_CANCELLED${EVIL}`);
    cb.searchParams.set('message', `bye${EVIL}`);
    // a wrong state with a hostile value is warned about, also clean
    await fetch(`${redirect.origin}/callback?state=${encodeURIComponent(EVIL)}&code=x`);
    await fetch(cb);
    expect(await exit).toBe(9);
    expect(err).toContain('USER_CANCELLED');
    expect(err).not.toMatch(DANGER);
  });
});

const script = requires({ tools: ['script'] });
script.describe('on a real terminal (script(1) gives bankctl a pseudo-terminal)', () => {
  test('users create --use and config get user print no escape sequence to the terminal', async () => {
    const e = env();
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const cmd = `${q(process.execPath)} ${q(BIN)} users create --market SE --use -o json; ${q(process.execPath)} ${q(BIN)} config get user`;
    const out = await new Promise<string>((resolve) => {
      const child = spawn(toolPath('script')!, ['-qfec', cmd, '/dev/null'], {
        env: { PATH: process.env.PATH, TERM: 'xterm', ...e },
      });
      let text = '';
      child.stdout.on('data', (c) => (text += c.toString()));
      child.on('close', () => resolve(text));
    });
    expect(out).toContain('u123');
    expect(out).not.toMatch(DANGER);
  });
});
