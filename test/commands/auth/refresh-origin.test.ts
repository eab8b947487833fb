// A refresh token is sent only to the service (and client) that issued it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnCli, tempDir } from '../../helpers/cli.js';
import { reply, scriptedServer } from '../../helpers/scripted-server.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

function cacheWithRefresh(dir: string, baseUrl: string): void {
  const token = {
    accessToken: 'access-of-issuer',
    refreshToken: 'refresh-of-issuer-0123456789',
    scope: 'accounts:read',
    expiresAt: Date.now() + 3_600_000,
    kind: 'user',
    user: 'linked',
    baseUrl,
    clientId: 'issuer-client',
  };
  writeFileSync(
    join(dir, 'tokens.json'),
    JSON.stringify({ default: { [`user:${baseUrl}:issuer-client:linked`]: token } }),
    {
      mode: 0o600,
    },
  );
}

describe('auth refresh: the refresh token goes back to its issuer only', () => {
  it('another base URL (and client) is refused before anything is sent, naming the issuer', async () => {
    const other = await scriptedServer([reply(401, '{"errorMessage":"no"}')]);
    servers.push(other);
    const dir = tempDir();
    cacheWithRefresh(dir, 'https://issuer.example.com');
    const r = await spawnCli(['auth', 'refresh', '--client-id', 'other-client'], {
      env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_BASE_URL: other.url, BANKCTL_CLIENT_SECRET: 'other-secret' },
    });
    expect(other.seen).toEqual([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('https://issuer.example.com (client issuer-client)');
    expect(r.stderr).not.toContain('refresh-of-issuer');
  });

  it('the issuing base URL and client still refresh with it', async () => {
    const issuer = await scriptedServer([
      reply(200, '{"access_token":"new-access","token_type":"bearer","expires_in":3600,"scope":"accounts:read"}'),
    ]);
    servers.push(issuer);
    const dir = tempDir();
    cacheWithRefresh(dir, issuer.url);
    const r = await spawnCli(['auth', 'refresh', '--client-id', 'issuer-client', '-o', 'json'], {
      env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_BASE_URL: issuer.url, BANKCTL_CLIENT_SECRET: 'issuer-secret' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(issuer.seen).toHaveLength(1);
    expect(issuer.seen[0]!.body).toContain('refresh_token=refresh-of-issuer-0123456789');
  });
});

describe('auth refresh: an answer without a new refresh token', () => {
  it('keeps the stored refresh token (RFC 6749 6): a second refresh works', async () => {
    const issuer = await scriptedServer([
      reply(200, '{"access_token":"new-access-1","token_type":"bearer","expires_in":3600,"scope":"accounts:read"}'),
      reply(200, '{"access_token":"new-access-2","token_type":"bearer","expires_in":3600,"scope":"accounts:read"}'),
    ]);
    servers.push(issuer);
    const dir = tempDir();
    cacheWithRefresh(dir, issuer.url);
    const env = {
      BANKCTL_CONFIG_DIR: dir,
      BANKCTL_BASE_URL: issuer.url,
      BANKCTL_CLIENT_ID: 'issuer-client',
      BANKCTL_CLIENT_SECRET: 's',
    };
    const first = await spawnCli(['auth', 'refresh', '-o', 'json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const second = await spawnCli(['auth', 'refresh', '-o', 'json'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(issuer.seen).toHaveLength(2);
    expect(issuer.seen[1]!.body).toContain('refresh_token=refresh-of-issuer-0123456789');
  });
});
