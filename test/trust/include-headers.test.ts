// `api -i` prints the response headers on stderr, beside the -v trace and the error line: a code or
// token the service newly issues in a redirect's URL is hidden there as the trace and the error hide
// it; the body on stdout (the escape hatch's data) is printed whole.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { readyTokenEnv, scriptedServer } from '../helpers/scripted-server.js';

const CODE = 'fresh-auth-code-7f3a9c';
const TOKEN = 'fresh-access-token-1b2c3d';
const BODY_CODE = 'body-code-55aa66bb';

let s: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  s = await scriptedServer(() => (req, res) => {
    if (req.url?.startsWith('/redirect')) {
      res.writeHead(302, {
        location: `https://app.example/cb?code=${CODE}&state=st-1`,
        'content-location': `/cb/done#access_token=${TOKEN}&token_type=bearer`,
        'content-type': 'text/plain',
      });
      return res.end('moved');
    }
    res.writeHead(200, {
      'content-type': 'application/json',
      location: `cb?code=${CODE}&state=st-2`,
      'content-location': `//other.example/x?id_token=${TOKEN}`,
    });
    res.end(JSON.stringify({ code: BODY_CODE }));
  });
});
afterAll(() => s.close());

test('a redirect: its Location and Content-Location show no code or token, under -i and -v alike', async () => {
  const r = await runCli(['api', 'GET', '/redirect', '--as', 'user', '-i', '-v'], { env: readyTokenEnv(s.url) });
  expect(r.code).not.toBe(0);
  expect(r.stderr).toMatch(/^HTTP 302$/m);
  expect(r.stderr).toContain('location: https://app.example/cb?code=***&state=st-1');
  expect(r.stderr).toContain('content-location: /cb/done#access_token=***&token_type=bearer');
  expect(r.stderr + r.stdout).not.toContain(CODE);
  expect(r.stderr + r.stdout).not.toContain(TOKEN);
});

test('a 2xx: relative URL headers are redacted too, the body on stdout is printed whole', async () => {
  const r = await runCli(['api', 'GET', '/answer', '--as', 'user', '-i', '-v'], { env: readyTokenEnv(s.url) });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain('location: cb?code=***&state=st-2');
  expect(r.stderr).toContain('content-location: //other.example/x?id_token=***');
  expect(r.stderr).not.toContain(CODE);
  expect(r.stderr).not.toContain(TOKEN);
  expect(JSON.parse(r.stdout)).toEqual({ code: BODY_CODE });
});
