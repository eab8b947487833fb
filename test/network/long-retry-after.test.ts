// A 429 (or 503) whose Retry-After is longer than bankctl waits by itself: the command ends at once
// with the wait named, instead of three capped retries that can only fail again; `api -i` shows the
// error's headers (Retry-After, X-Request-ID) as it does a success's, redacted.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

const TOKEN = 'tok_l0ng_wait_secret';
let server: Server;
let base = '';
let hits = 0;
let retryAfter = '7200';

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    res.writeHead(429, {
      'content-type': 'application/json',
      'retry-after': retryAfter,
      'x-request-id': `rid-${req.headers.authorization ?? ''}`,
    });
    res.end(JSON.stringify({ errorMessage: 'quota used up', errorCode: 'rate.limited' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const env = () => ({ BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: base, BANKCTL_TOKEN: TOKEN });

describe('a Retry-After longer than bankctl waits', () => {
  test('exit 6 at once, one request, the wait and when to try again in the hint', async () => {
    hits = 0;
    retryAfter = '7200';
    const started = Date.now();
    const r = await runCli(['accounts', 'list'], { env: env() });
    expect(r.code).toBe(6);
    expect(hits).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.stderr).toMatch(/HTTP 429: quota used up/);
    expect(r.stderr).toMatch(
      /the service asks to wait 7200 s \(Retry-After\).*try again after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/,
    );
  });

  test.each([
    ['20 digits', '99999999999999999999'],
    ['400 digits', '9'.repeat(400)],
  ])('a Retry-After past any date (%s) is exit 6 with the service message, not exit 1', async (_digits, value) => {
    hits = 0;
    retryAfter = value;
    const r = await runCli(['accounts', 'list'], { env: env() });
    expect(r.code, r.stderr).toBe(6);
    expect(hits).toBe(1);
    expect(r.stderr).toMatch(/HTTP 429: quota used up/);
    expect(r.stderr).toMatch(/a wait past any date \(Retry-After\).*try again later/);
  });

  test('a short one is still waited for and retried', async () => {
    hits = 0;
    retryAfter = '0';
    const r = await runCli(['accounts', 'list', '--retries', '2'], { env: env() });
    expect(r.code).toBe(6);
    expect(hits).toBe(3);
    expect(r.stderr).not.toMatch(/asks to wait/);
  });

  test('api -i prints the error answer headers, the echoed token redacted', async () => {
    retryAfter = '7200';
    const r = await runCli(['api', 'GET', '/api/v1/accounts/list', '-i'], { env: env() });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^HTTP 429$/m);
    expect(r.stderr).toMatch(/^retry-after: 7200$/m);
    expect(r.stderr).toMatch(/^x-request-id: rid-Bearer \*\*\*$/m);
    expect(r.stderr).not.toContain(TOKEN);
    expect(r.stdout).toContain('quota used up');
  });
});
