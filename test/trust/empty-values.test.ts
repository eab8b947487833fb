// A flag or id given with nothing in it (`--account "$ACC"` where ACC came out empty) is exit 2 with
// nothing sent: taken as "not given", it would answer for every account, every status, every
// market, or act for the profile's user instead, with exit 0.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

let server: Server;
let base = '';
const seen: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

test.each([
  [['transactions', 'list', '--account', ''], /--account is empty/],
  [['transactions', 'list', '--account', ' , '], /--account is empty/],
  [['transactions', 'list', '--status='], /--status is empty/],
  [['accounts', 'list', '--v2', '--id='], /--id is empty/],
  [['accounts', 'list', '--v2', '--type', ''], /--type is empty/],
  [['reports', 'create', '--account', ''], /--account is empty/],
  [
    ['statistics', 'query', '--type', 'expenses-by-category', '--resolution', 'MONTHLY', '--description', ''],
    /--description is empty/,
  ],
  [['providers', 'list', '--market='], /--market: unknown market ""/],
  [['users', 'create', '--market', ''], /--market: unknown market ""/],
  [['transactions', 'list', '--user='], /the user id is empty.*give --user a value/],
  [['accounts', 'list', '--external-user', ' '], /the external user id is empty/],
  [['accounts', 'get', ''], /the id is empty/],
  [['credentials', 'get', '  '], /the id is empty/],
])('%j is exit 2 naming it, nothing sent', async (args, message) => {
  seen.length = 0;
  const r = await runCli(args, {
    env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: base, BANKCTL_TOKEN: 'tok-123456', BANKCTL_USER: 'u1' },
  });
  expect(r.stderr).toMatch(message);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(seen).toEqual([]);
});
