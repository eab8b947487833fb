// A profile's client secret goes only to the profile's own base URL: a BANKCTL_BASE_URL left in the
// shell does not carry it to another service.
import { describe, expect, it } from 'vitest';
import { afterEach } from 'vitest';
import { spawnCli, tempDir } from '../../helpers/cli.js';
import { reply, scriptedServer } from '../../helpers/scripted-server.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function prodProfile(dir: string, base: string): Promise<void> {
  const env = { BANKCTL_CONFIG_DIR: dir };
  for (const [k, v] of [
    ['base-url', base],
    ['client-id', 'prod-client'],
    ['client-secret', 'prod-secret-0123456789'],
  ])
    expect((await spawnCli(['config', 'set', k!, v!, '--profile', 'prod'], { env })).code).toBe(0);
}

describe("the profile's client secret and BANKCTL_BASE_URL", () => {
  it('another base URL from the environment: exit 2 before the secret is sent; --base-url means it', async () => {
    const other = await scriptedServer([reply(401, '{"errorMessage":"no"}')]);
    servers.push(other);
    const dir = tempDir();
    await prodProfile(dir, 'https://prod.example.invalid');
    const r = await spawnCli(['users', 'create', '--market', 'SE', '--profile', 'prod'], {
      env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_BASE_URL: other.url },
    });
    expect(other.seen).toEqual([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`BANKCTL_BASE_URL (${other.url}) is not the base URL of profile "prod"`);
    expect(r.stderr).not.toContain('prod-secret');

    const meant = await spawnCli(['users', 'create', '--market', 'SE', '--profile', 'prod', '--base-url', other.url], {
      env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_BASE_URL: other.url },
    });
    expect(meant.code).toBe(3);
    expect(other.seen).toHaveLength(1);
  });

  it("the profile's own base URL in the environment too (a trailing slash aside) is fine", async () => {
    const own = await scriptedServer([
      reply(200, '{"access_token":"client-access","token_type":"bearer","expires_in":1800,"scope":"user:create"}'),
      reply(200, '{"user_id":"u1","external_user_id":null}'),
    ]);
    servers.push(own);
    const dir = tempDir();
    await prodProfile(dir, own.url);
    const r = await spawnCli(['users', 'create', '--market', 'SE', '--profile', 'prod', '-o', 'json'], {
      env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_BASE_URL: `${own.url}/` },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(own.seen[0]!.body).toContain('client_secret=prod-secret-0123456789');
  });
});

describe("the profile's ready token, HTTP Basic and connector token and BANKCTL_BASE_URL", () => {
  async function profileWith(dir: string, key: string, value: string): Promise<void> {
    const env = { BANKCTL_CONFIG_DIR: dir };
    for (const [k, v] of [
      ['base-url', 'https://prod.example.invalid'],
      [key, value],
    ])
      expect((await spawnCli(['config', 'set', k!, v!, '--profile', 'prod'], { env })).code).toBe(0);
  }

  for (const [key, value, args, what] of [
    ['token', 'prod-bearer-0123456789', ['accounts', 'list'], 'token'],
    ['basic', 'u1:prod-basic-0123456789', ['accounts', 'list'], 'HTTP Basic token'],
    ['connector-token', 'prod-connector-0123456789', ['connector', 'webhooks', 'list'], 'connector token'],
  ] as const) {
    it(`${key}: exit 2 before it goes to another base URL; --base-url means it`, async () => {
      const other = await scriptedServer([reply(401, '{"errorMessage":"no"}')]);
      servers.push(other);
      const dir = tempDir();
      await profileWith(dir, key, value);
      const r = await spawnCli([...args, '--profile', 'prod'], {
        env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_BASE_URL: other.url },
      });
      expect(other.seen).toEqual([]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `BANKCTL_BASE_URL (${other.url}) is not the base URL of profile "prod" (https://prod.example.invalid), whose ${what} would be sent there`,
      );
      expect(r.stderr).not.toContain('0123456789');

      const meant = await spawnCli([...args, '--profile', 'prod', '--base-url', other.url], {
        env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_BASE_URL: other.url },
      });
      expect(meant.code).toBe(3);
      expect(other.seen).toHaveLength(1);
      expect(JSON.stringify(other.seen[0]!.headers)).toContain(key === 'basic' ? 'Basic ' : '0123456789');
    });
  }
});

it("a refused connector token from the environment is not retried with the profile's next one for another service", async () => {
  const other = await scriptedServer([reply(401, '{"errorMessage":"no"}'), reply(401, '{"errorMessage":"no"}')]);
  servers.push(other);
  const dir = tempDir();
  const env = { BANKCTL_CONFIG_DIR: dir };
  for (const [k, v] of [
    ['base-url', 'https://prod.example.invalid'],
    ['connector-token-next', 'prod-next-0123456789'],
  ])
    expect((await spawnCli(['config', 'set', k!, v!, '--profile', 'prod'], { env })).code).toBe(0);
  const r = await spawnCli(['connector', 'webhooks', 'list', '--profile', 'prod'], {
    env: { ...env, BANKCTL_BASE_URL: other.url, BANKCTL_CONNECTOR_TOKEN: 'env-connector-token' },
  });
  expect(r.code).toBe(3);
  expect(other.seen).toHaveLength(1);
  expect(JSON.stringify(other.seen)).not.toContain('prod-next');
});
