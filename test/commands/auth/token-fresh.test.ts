// `auth token --fresh`: a cached token the service no longer takes is replaced without `auth logout`.
import { describe, expect, it } from 'vitest';
import { spawnCli, tempDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/commands.js';
import { raw } from '../../helpers/sandbox.js';

const sb = useSandbox({ user: true });
const status = async (token: string) =>
  (await raw(sb.t.sandbox.baseUrl, 'GET', '/api/v1/user', { headers: { authorization: `Bearer ${token}` } })).status;

describe('auth token --fresh', () => {
  it('after a revocation elsewhere the cached token is printed again; --fresh gets one that works and caches it', async () => {
    const env = sb.env;
    const first = await spawnCli(['auth', 'token', '--scope', 'user:read'], { env });
    expect(first.code, first.stderr).toBe(0);
    const revoked = first.stdout.trim();
    expect(await status(revoked)).toBe(200);
    // revoked server-side by someone else (another machine, another config dir)
    const other = await spawnCli(['auth', 'revoke-all', '--user', sb.userId, '--yes'], {
      env: { ...env, BANKCTL_CONFIG_DIR: tempDir() },
    });
    expect(other.code, other.stderr).toBe(0);
    expect(await status(revoked)).toBe(401);
    const cached = await spawnCli(['auth', 'token', '--scope', 'user:read'], { env });
    expect(cached.stdout.trim()).toBe(revoked);

    const fresh = await spawnCli(['auth', 'token', '--scope', 'user:read', '--fresh'], { env });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout.trim()).not.toBe(revoked);
    expect(await status(fresh.stdout.trim())).toBe(200);
    const again = await spawnCli(['auth', 'token', '--scope', 'user:read'], { env });
    expect(again.stdout.trim()).toBe(fresh.stdout.trim());
  });
});
