// One rule says which names hold a secret (src/contract/secret-names.ts): `code`, `pin`, `otp`,
// `pinCode`, `authorization_code`... are hidden; `currencyCode`, `countryCode`, `providerCode`,
// `tokenType` are ordinary fields and shown. And a short secret (a 4-digit PIN, a 5-digit OTP) the
// client sent is hidden where a server echoes it after a secret's name, without blanking the same
// digits elsewhere.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { isSecretName, mayNameSecret } from '../../src/contract/secret-names.js';
import { redactBody } from '../../src/sandbox/bench/redact.js';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const sent = (url.search ? Object.fromEntries(url.searchParams) : JSON.parse(body || '{}')) as Record<
        string,
        unknown
      >;
      const first = sent.otp ?? sent.pin;
      // a chatty server: the request it got back, as JSON, as escaped JSON inside a string, and in words
      res.writeHead(400, { 'content-type': 'application/json', 'x-auth-token': 'srv-t0ken-99', 'x-code': 'E42' });
      res.end(
        JSON.stringify({
          errorMessage: `Invalid OTP ${String(first)}; request id 2026-${String(first)}`,
          errorCode: 'invalid_request',
          received: sent,
          raw: JSON.stringify(sent),
          header: req.headers['x-auth-token'],
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const env = () => ({ BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: base, BANKCTL_RETRIES: '0' });

describe('the one rule for secret names', () => {
  test.each([
    'code',
    'code1',
    'authorization_code',
    'authorizationCode',
    'client_secret',
    'password',
    'newPassword',
    'refresh_token',
    'access_token',
    'id_token',
    'token',
    'pin',
    'PIN',
    'otp',
    'pinCode',
    'pin_code',
    'smsCode',
    'private_key',
    'apiKey',
    'X-API-Key',
    'client_assertion',
    'code_verifier',
    'webhookSecret',
    'information',
    'passwords',
    'tokens',
    'recoveryCodes',
    'private_keys',
    'OTPCode',
    'code_1',
    'passwordConfirmation',
    'tokenValue',
    'authorizationHeader',
    'otp_value',
    'pinNumber',
  ])('%s is a secret, and a JSON text holding it may name one', (name) => {
    expect(isSecretName(name)).toBe(true);
    expect(mayNameSecret(JSON.stringify({ a: 1, [name]: 'x' }))).toBe(true);
    expect(mayNameSecret(JSON.stringify({ a: 1, [name]: ['x'] }, null, 2))).toBe(true);
  });

  test('a push body of ordinary transactions is not taken to name a secret (it is not parsed to look)', () => {
    const tx = {
      amount: '12.50',
      currencyCode: 'SEK',
      merchantCategoryCode: '5411',
      description: 'SHOPPING PINNACLE TOKENS AB',
      payload: { TAGS: 'pin' },
      countryCode: 'SE',
      tokenType: 'x',
    };
    expect(mayNameSecret(JSON.stringify({ transactions: [tx, tx] }))).toBe(false);
  });

  test.each([
    'currencyCode',
    'countryCode',
    'merchantCategoryCode',
    'providerCode',
    'postalCode',
    'statusCode',
    'errorCode',
    'tokenType',
    'token_type',
    'nextPageToken',
    'page_token',
    'client_assertion_type',
    'client_secret_expires_at',
    'publicKey',
    'idempotencyKey',
    'pinned',
    'opinion',
    'market',
    'currencyCodes',
    'publicKeys',
    'access',
    'currencyCodeValue',
    'keyValue',
    'value',
  ])('%s is not', (name) => expect(isSecretName(name)).toBe(false));
});

describe('api --dry-run (spawned)', () => {
  test('a JSON body: currencyCode and countryCode shown, code, pin and pinCode hidden', async () => {
    const r = await spawnCli(
      [
        ...['api', 'POST', '/x', '--as', 'none', '--dry-run'],
        ...['-f', 'currencyCode=SEK', '-f', 'countryCode=SE', '-f', 'merchantCategoryCode=5411'],
        ...['-f', 'code=auth-c0de', '-F', 'pin=1234', '-f', 'pinCode=8642', '-f', 'tokenType=bearer'],
      ],
      { env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: 'http://127.0.0.1:9' } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.slice(r.stdout.indexOf('{')))).toEqual({
      currencyCode: 'SEK',
      countryCode: 'SE',
      merchantCategoryCode: '5411',
      code: '<redacted>',
      pin: '<redacted>',
      pinCode: '<redacted>',
      tokenType: 'bearer',
    });
  });

  test('a query and a form: providerCode shown, otp and authorization_code hidden', async () => {
    const e = { env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: 'http://127.0.0.1:9' } };
    const get = await spawnCli(
      ['api', 'GET', '/x', '--as', 'none', '--dry-run', '-f', 'providerCode=se-bank', '-f', 'otp=48213'],
      e,
    );
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).toMatch(/^GET http:\/\/127\.0\.0\.1:9\/x\?providerCode=se-bank&otp=<redacted>\n/);
    const form = await spawnCli(
      [
        ...['api', 'POST', '/x', '--as', 'none', '--form', '--dry-run'],
        ...['-f', 'postalCode=11122', '-f', 'authorization_code=c0de-9'],
      ],
      e,
    );
    expect(form.code, form.stderr).toBe(0);
    expect(form.stdout).toContain('\n\npostalCode=11122&authorization_code=%3Credacted%3E\n');
  });
});

describe('a code that is not a credential', () => {
  test("api --dry-run: a budget filter's category code is shown, a bare code beside it still hidden", async () => {
    const input = { code: 'auth-c0de', filter: { categories: [{ code: 'expenses:food.coffee' }] } };
    const r = await spawnCli(['api', 'POST', '/x', '--as', 'none', '--dry-run', '--input', '-'], {
      env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: 'http://127.0.0.1:9' },
      stdin: JSON.stringify(input),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.slice(r.stdout.indexOf('{')))).toEqual({
      code: '<redacted>',
      filter: { categories: [{ code: 'expenses:food.coffee' }] },
    });
  });

  test('the sandbox request log keeps a category code and hides a grant code', () => {
    const logged = JSON.parse(
      redactBody(
        JSON.stringify({ code: 'auth-c0de', filter: { categories: [{ code: 'expenses:home' }] } }),
        'application/json',
      ),
    ) as unknown;
    expect(logged).toEqual({ code: '[redacted]', filter: { categories: [{ code: 'expenses:home' }] } });
  });
});

describe('everything under a secret name', () => {
  test('api --dry-run --input: a list of tokens, the supplemental answers and a token header hidden, a list of codes shown', async () => {
    const input = {
      tokens: ['t0ken-one', 't0ken-two'],
      information: { otp: '482131', deviceName: 'my phone' },
      currencyCodes: ['SEK', 'EUR'],
    };
    const r = await spawnCli(
      ['api', 'POST', '/x', '--as', 'none', '--dry-run', '--input', '-', '-H', 'X-Auth-Token: hdr-1'],
      {
        env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: 'http://127.0.0.1:9' },
        stdin: JSON.stringify(input),
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\nX-Auth-Token: <redacted>\n');
    expect(JSON.parse(r.stdout.slice(r.stdout.indexOf('{')))).toEqual({
      tokens: ['<redacted>', '<redacted>'],
      information: { otp: '<redacted>', deviceName: '<redacted>' },
      currencyCodes: ['SEK', 'EUR'],
    });
  });

  test('a list of tokens sent and a secret header are not in the echo', async () => {
    const r = await runCli(
      [...['api', 'POST', '/check', '--as', 'none', '--input', '-', '-v'], ...['-H', 'X-Auth-Token: hdr-s3cret-77']],
      { env: env(), stdin: JSON.stringify({ tokens: ['t0ken-one', 't0ken-two'], pin: '1357' }) },
    );
    expect(r.code, r.stderr).toBe(2);
    const out = r.stdout + r.stderr;
    for (const s of ['t0ken-one', 't0ken-two', 'hdr-s3cret-77']) expect(out).not.toContain(s);
    expect(out).toContain('"header": "***"');
  });
});

test('api -i: a response header named as a secret is not shown, the others are', async () => {
  const r = await runCli(['api', 'GET', '/check', '--as', 'none', '-i'], { env: env() });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/^HTTP 400\n/);
  expect(r.stderr).toContain('\nx-auth-token: <redacted>\n');
  expect(r.stderr).toContain('\nx-code: E42\n');
  expect(r.stderr).toContain('\ncontent-type: application/json\n');
  expect(r.stdout + r.stderr).not.toContain('srv-t0ken-99');
});

describe('a short secret a server echoes', () => {
  test('a 5-digit OTP in the query: hidden in the -v trace, the error line and the body on stdout', async () => {
    const r = await runCli(['api', 'GET', '/check', '--as', 'none', '-f', 'otp=48213', '-f', 'countryCode=SE', '-v'], {
      env: env(),
    });
    expect(r.code, r.stderr).toBe(2);
    const out = r.stdout + r.stderr;
    expect(out).toMatch(/GET \S*\/check\?otp=\*\*\*&countryCode=SE/);
    expect(out).not.toMatch(/otp\W{0,12}48213/i);
    expect(out).toContain('"countryCode": "SE"');
    // the same digits where no secret's name comes before them are ordinary text
    expect(out).toContain('request id 2026-48213');
  });

  test('a 4-digit PIN in a JSON body, echoed as JSON, escaped JSON and in words', async () => {
    const r = await runCli(
      ['api', 'POST', '/check', '--as', 'none', '-F', 'pin=4711', '-f', 'currencyCode=SEK', '-v'],
      { env: env() },
    );
    expect(r.code, r.stderr).toBe(2);
    const out = r.stdout + r.stderr;
    expect(out).toContain('Invalid OTP ***');
    expect(out).not.toMatch(/pin\W{0,12}4711/i);
    expect(out).toMatch(/"pin": "?\*\*\*/);
    expect(out).toContain('"currencyCode": "SEK"');
  });
});
