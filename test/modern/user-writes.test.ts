// What `users update` and `users profile set` send, held to the vendor's reference (api-general):
// PATCH /api/v1/user must give the user's id ("must match the ID of the authenticated user access
// token"), and PUT /api/v1/user/profile takes the whole modifiable profile (locale, period, time
// zone and all fourteen notification settings are required). A node:http server answers as the
// reference's examples do and records what the real CLI sent.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { scriptedServer, type Seen } from '../helpers/scripted-server.js';
import { example } from '../conformance/replay.js';
import { NOTIFICATION_SETTINGS } from '../../src/contract/item-fields.js';

let server: { url: string; seen: Seen[]; close(): Promise<void> };
beforeAll(async () => {
  const user = example('GET__api_v1_user').body as Record<string, unknown>;
  const profile = example('GET__api_v1_user_profile').body as Record<string, unknown>;
  server = await scriptedServer(() => (req, res, body) => {
    const json = (doc: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
    if (req.url === '/api/v1/user' && req.method === 'GET') return json(user);
    if (req.url === '/api/v1/user' && req.method === 'PATCH') return json({ ...user, ...JSON.parse(body) });
    if (req.url === '/api/v1/user/profile' && req.method === 'GET') return json(profile);
    if (req.url === '/api/v1/user/profile' && req.method === 'PUT') return json({ ...profile, ...JSON.parse(body) });
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"errorMessage":"not found"}');
  });
});
afterAll(() => server.close());

const run = (argv: string[]) =>
  runCli(argv, {
    env: {
      BANKCTL_BASE_URL: server.url,
      BANKCTL_TOKEN: 'user-token-1',
      BANKCTL_CONFIG_DIR: tempDir(),
      BANKCTL_RETRIES: '0',
    },
  });
const sent = (method: string, from: number) => {
  const s = server.seen.slice(from).find((x) => x.method === method);
  return s && (JSON.parse(s.body) as Record<string, unknown>);
};

describe('users update', () => {
  test("gives the token's user id with the changes", async () => {
    const from = server.seen.length;
    const r = await run(['users', 'update', '--username', 'tinker@example.com', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const { id } = example('GET__api_v1_user').body as { id: string };
    expect(sent('PATCH', from)).toEqual({ id, username: 'tinker@example.com' });
  });
});

describe('users profile set', () => {
  test('one --notify sends the whole modifiable profile, the other settings as they were', async () => {
    const from = server.seen.length;
    const r = await run(['users', 'profile', 'set', '--notify', 'budget=on', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const current = example('GET__api_v1_user_profile').body as {
      notificationSettings: Record<string, boolean>;
      [k: string]: unknown;
    };
    const body = sent('PUT', from)!;
    // the reference's request example's keys: market and currency are read-only
    expect(Object.keys(body).sort()).toEqual([
      'locale',
      'notificationSettings',
      'periodAdjustedDay',
      'periodMode',
      'timeZone',
    ]);
    expect(body.notificationSettings).toEqual({ ...current.notificationSettings, budget: true });
    expect(Object.keys(body.notificationSettings as object).sort()).toEqual([...NOTIFICATION_SETTINGS].sort());
    expect(body.periodMode).toBe(current.periodMode);
  });

  test('an unknown notification is exit 2 naming the known ones, nothing sent', async () => {
    const from = server.seen.length;
    const r = await run(['users', 'profile', 'set', '--notify', 'budgets=on']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown notification "budgets".*one of balance, budget, /);
    expect(server.seen.length).toBe(from);
  });
});
