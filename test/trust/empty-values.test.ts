// A flag or id given with nothing in it (`--account "$ACC"` where ACC came out empty) is exit 2 with
// nothing sent: taken as "not given", it would answer for every account, every status, every
// market, or act for the profile's user instead, with exit 0.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { reply, scriptedServer } from '../helpers/scripted-server.js';

let server: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  server = await scriptedServer(() => reply(500, ''));
});
afterAll(() => server.close());

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
  server.seen.length = 0;
  const r = await runCli(args, {
    env: {
      BANKCTL_CONFIG_DIR: tempDir(),
      BANKCTL_BASE_URL: server.url,
      BANKCTL_TOKEN: 'tok-123456',
      BANKCTL_USER: 'u1',
    },
  });
  expect(r.stderr).toMatch(message);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(server.seen).toEqual([]);
});
