// Secrets in every form a server can send them back in: a hostile (or merely chatty) server echoes
// the request it got in its error body: the form body (URL-encoded secret), the Authorization
// header (base64 Basic credentials), JSON-escaped. None of it reaches the terminal.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

const SECRET = 's3cr3t+/=&val ue';
const BASIC_TOKEN = 'basic-t0ken+/=&x';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      // a 2xx answer that is not what the endpoint returns, echoing the Authorization header
      // (a login page, a proxy): as HTML, and as JSON of the wrong shape with the token at the cut
      if (req.url?.startsWith('/data/v2/accounts')) {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(`<pre>${req.headers.authorization ?? ''}</pre>`);
      }
      if (req.url?.startsWith('/data/v2/transactions')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ padding: 'p'.repeat(20), echo: req.headers.authorization ?? '' }));
      }
      // the form body it got, quoted in an HTML page (entities) or by a JSON encoder that writes
      // "<>&" and anything past ASCII as \uXXXX (Go, Python, PHP)
      if (req.url?.startsWith('/html/')) {
        const entities: Record<string, string> = {
          '&': '&amp;',
          '<': '&lt;',
          '>': '&gt;',
          '"': '&quot;',
          "'": '&#39;',
        };
        res.writeHead(400, { 'content-type': 'text/html' });
        return res.end(
          `<p>refused: ${decodeURIComponent(body.replace(/\+/g, ' ')).replace(/[&<>"']/g, (c) => entities[c]!)}</p>`,
        );
      }
      if (req.url?.startsWith('/escaped/')) {
        const text = JSON.stringify({ errorMessage: `refused: ${decodeURIComponent(body.replace(/\+/g, ' '))}` });
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(
          text.replace(/[<>&\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
        );
      }
      // a reachable server for `doctor`
      if (req.url === '/version') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"version":"echo-1"}');
      }
      // the form body it got, each value cut in two by an escape sequence
      if (req.url?.startsWith('/split/')) {
        const cut = [...new URLSearchParams(body)].map(([k, v]) => `${k}=${v.slice(0, 3)}\u001b[0m${v.slice(3)}`);
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ errorMessage: `refused: ${cut.join(' ')}` }));
      }
      // everything it got, in every shape at once
      const echo = `${req.method} ${req.url} body=${body} authorization=${req.headers.authorization ?? ''}`;
      res.writeHead(req.url === '/api/v1/oauth/token' ? 401 : 400, {
        'content-type': 'application/json',
        // and its request id made of the Authorization header
        'x-request-id': `rid-${req.headers.authorization ?? ''}`,
      });
      res.end(JSON.stringify({ errorMessage: echo, errorCode: 'echo', errorDetails: { json: JSON.stringify(body) } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

/** The forms a leak would take. */
function forms(secret: string, user = ''): string[] {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return [
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ x: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
    b64(secret),
    ...(user ? [b64(`${user}:${secret}`)] : []),
  ];
}

const env = () => ({ BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: base, BANKCTL_RETRIES: '0' });

describe('echoed secrets are redacted', () => {
  test('the client secret, URL-encoded in the form body a server echoes (error line and --verbose trace)', async () => {
    const r = await runCli(['users', 'create', '--market', 'SE', '-v'], {
      env: { ...env(), BANKCTL_CLIENT_ID: 'client', BANKCTL_CLIENT_SECRET: SECRET },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('client_secret=***');
    for (const f of forms(SECRET)) expect(r.stderr).not.toContain(f);
  });

  test('HTTP Basic credentials, base64 in the Authorization header a server echoes', async () => {
    const r = await runCli(['accounts', 'list', '-v'], {
      env: { ...env(), BANKCTL_BASIC: `someone:${BASIC_TOKEN}` },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('authorization=Basic ***');
    for (const f of forms(BASIC_TOKEN, 'someone')) expect(r.stderr).not.toContain(f);
  });

  test('a bearer token a server echoes in its X-Request-ID: not in the error line, nor the trace', async () => {
    const token = 'AT_s3cret_abc+/=def';
    for (const verbose of [[], ['-v']]) {
      const r = await runCli(['accounts', 'list', ...verbose], { env: { ...env(), BANKCTL_TOKEN: token } });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/X-Request-ID rid-Bearer\s?\*\*\*/);
      for (const f of forms(token)) expect(r.stderr).not.toContain(f);
    }
  });
});

describe('secrets sent in a JSON body or the query, echoed back', () => {
  test('a connector user token from stdin, in the JSON body a server echoes', async () => {
    const userToken = 'uT0ken+/=&secret';
    const r = await runCli(
      ['connector', 'users', 'create', '--external-id', 'alice', '--user-token-stdin', '--market', 'SE', '-v'],
      { env: { ...env(), BANKCTL_CONNECTOR_TOKEN: 'connector-token-x' }, stdin: `${userToken}\n` },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('"token":"***"');
    for (const f of forms(userToken)) expect(r.stderr).not.toContain(f);
  });

  test('`api` -f password and -F pin in a JSON body: not in the error line, nor the error body on stdout', async () => {
    const r = await runCli(
      ['api', 'POST', '/anything', '--as', 'none', '-f', 'password=hunter2&pass', '-F', 'pin=98765432'],
      { env: env() },
    );
    expect(r.code, r.stderr).toBe(2);
    for (const out of [r.stderr, r.stdout]) {
      for (const f of forms('hunter2&pass')) expect(out).not.toContain(f);
      expect(out).not.toContain('98765432');
    }
    expect(r.stderr).toContain('password');
  });

  test('`api` GET with access_token and code in the query: the values are not in the echo', async () => {
    const r = await runCli(
      ['api', 'GET', '/anything', '--as', 'none', '-f', 'access_token=qT0ken+/=x', '-f', 'code=c0de-secret-1'],
      { env: env() },
    );
    expect(r.code, r.stderr).toBe(2);
    for (const out of [r.stderr, r.stdout]) {
      for (const f of [...forms('qT0ken+/=x'), ...forms('c0de-secret-1')]) expect(out).not.toContain(f);
    }
    expect(r.stderr).toContain('access_token=***');
  });

  test('a page token in a body is no secret: it is shown', async () => {
    const r = await runCli(['api', 'POST', '/anything', '--as', 'none', '-f', 'pageToken=page-two-token'], {
      env: env(),
    });
    expect(r.stderr).toContain('page-two-token');
  });
});

describe('a secret quoted as HTML or escaped JSON', () => {
  test.each([
    ['an HTML page (&amp; &lt; &quot;)', '/html', 's3cr3t&<val>"x\'y'],
    ['JSON with \\u003c and \\u00e4 escapes', '/escaped', 's3cr3t&<välue>'],
  ])('%s: the client secret is not in the error line, nor the error body on stdout', async (_what, prefix, secret) => {
    const r = await runCli(['users', 'create', '--market', 'SE', '-v'], {
      env: { ...env(), BANKCTL_BASE_URL: base + prefix, BANKCTL_CLIENT_ID: 'client', BANKCTL_CLIENT_SECRET: secret },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('client_secret=***');
    expect(r.stderr).not.toContain('s3cr3t');
    expect(r.stdout).not.toContain('s3cr3t');
  });
});

test('`api`: the error body it prints on stdout holds no password a JSON encoder escaped', async () => {
  const r = await runCli(['api', 'POST', '/escaped/thing', '--as', 'none', '-f', 'password=s3cr3t&<välue>'], {
    env: env(),
  });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toContain('refused');
  expect(r.stdout + r.stderr).not.toContain('s3cr3t');
});

describe('a 2xx body quoted in an error', () => {
  test.each([
    ['HTML', ['accounts', 'list', '--v2']],
    ['JSON of the wrong shape, the token where the quote is cut', ['transactions', 'list']],
  ])('%s: the echoed bearer token is not in the error line, nor any part of it', async (_what, args) => {
    const token = 'AT_s3cret_abc+/=def';
    for (const verbose of [[], ['-v']]) {
      const r = await runCli([...args, ...verbose], { env: { ...env(), BANKCTL_TOKEN: token } });
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).toMatch(/answered 200 .*Bearer \*\*\*/);
      for (const f of forms(token)) expect(r.stderr).not.toContain(f);
      expect(r.stderr).not.toContain(token.slice(0, 6));
    }
  });
});

describe('config list', () => {
  test('shows no password inside a URL (list, explain, json)', async () => {
    const e = { BANKCTL_CONFIG_DIR: tempDir() };
    const set = await runCli(['config', 'set', 'base-url', 'https://me:pa55-w0rd@api.example.com'], { env: e });
    expect(set.code).toBe(0);
    for (const args of [
      ['config', 'list'],
      ['config', 'list', '-o', 'json'],
      ['config', 'explain', '-o', 'json'],
    ]) {
      const r = await runCli(args, { env: e });
      expect(r.stdout, args.join(' ')).toContain('api.example.com');
      expect(r.stdout, args.join(' ')).not.toContain('pa55-w0rd');
    }
    // `config get` is how a script reads it back: the value itself
    expect((await runCli(['config', 'get', 'base-url'], { env: e })).stdout.trim()).toBe(
      'https://me:pa55-w0rd@api.example.com',
    );
  });
});

describe('secrets cut by control bytes, and base URL passwords', () => {
  test('a client secret a server echoes cut in two by an escape sequence is redacted once whole again', async () => {
    const r = await runCli(['users', 'create', '--market', 'SE'], {
      env: { ...env(), BANKCTL_BASE_URL: `${base}/split`, BANKCTL_CLIENT_ID: 'client', BANKCTL_CLIENT_SECRET: SECRET },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('client_secret=***');
    for (const f of forms(SECRET)) expect(r.stderr).not.toContain(f);
  });

  test('a password in the base URL is not shown by doctor, a bad base URL, config set or api --dry-run', async () => {
    const pw = 'Pa55word-xyz';
    const withPw = base.replace('http://', `http://user:${pw}@`);
    const runs = [
      await runCli(['doctor'], { env: { ...env(), BANKCTL_BASE_URL: withPw } }),
      await runCli(['doctor', '-o', 'json'], { env: { ...env(), BANKCTL_BASE_URL: withPw } }),
      await runCli(['accounts', 'list'], { env: { ...env(), BANKCTL_BASE_URL: `ftp://user:${pw}@host` } }),
      await runCli(['config', 'set', 'base-url', `ftp://user:${pw}@host`], { env: env() }),
      await runCli(['api', 'GET', '/x', '--dry-run'], { env: { ...env(), BANKCTL_BASE_URL: withPw } }),
    ];
    expect(runs[0]!.stdout + runs[0]!.stderr).toMatch(/user:\*\*\*@127\.0\.0\.1:\d+\/? answers/);
    for (const r of runs.slice(2, 4)) expect(r.code, r.stderr).toBe(2);
    for (const r of runs) expect(r.stdout + r.stderr).not.toContain(pw);
  });

  test('auth exchange: a code with a control character in it is exit 2 without the code in the error', async () => {
    const code = 'auth-c0de-9f8e7d\r';
    const r = await runCli(['auth', 'exchange', code], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('(not shown: a secret)');
    expect(r.stderr).not.toContain('auth-c0de-9f8e7d');
  });

  test('api --dry-run: secrets in the query (given or in the path) and numbers in secret fields are not shown', async () => {
    const r = await runCli(
      [
        ...['api', 'POST', '/x?access_token=pAth-t0ken-1&keep=1', '--as', 'none', '--dry-run'],
        ...['-F', 'password=123456789', '-F', 'pin=4242', '-F', 'amount=12'],
      ],
      { env: env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^POST .*\/x\?access_token=<redacted>&keep=1\n/);
    expect(JSON.parse(r.stdout.slice(r.stdout.indexOf('{')))).toEqual({
      password: '<redacted>',
      pin: '<redacted>',
      amount: 12,
    });
    const get = await runCli(['api', 'GET', '/x', '--as', 'none', '-f', 'code=c0de-secret-2', '--dry-run'], {
      env: env(),
    });
    expect(get.stdout).toMatch(/^GET .*\/x\?code=<redacted>\n/);
    expect(get.stdout).not.toContain('c0de-secret-2');
  });
});
