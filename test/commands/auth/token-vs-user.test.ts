// --user names the acting user: a ready token from BANKCTL_TOKEN (maybe another user's) is not sent as that user's.
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/commands.js';

const sb = useSandbox();

const idOf = (stdout: string): string => (JSON.parse(stdout) as { id: string }).id;

describe('a ready token from the environment and --user', () => {
  it('--user wins over BANKCTL_TOKEN for calls as a user, with a notice; without --user the token is used', async () => {
    const env = sb.env;
    const a = await spawnCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env });
    const b = await spawnCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env });
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const userA = (JSON.parse(a.stdout) as { user_id: string }).user_id;
    const userB = (JSON.parse(b.stdout) as { user_id: string }).user_id;
    const t = await spawnCli(['auth', 'token', '--user', userA, '--scope', 'user:read'], { env });
    expect(t.code, t.stderr).toBe(0);
    const tokenA = t.stdout.trim();

    const asB = await spawnCli(['api', 'GET', '/api/v1/user', '--user', userB, '-o', 'json'], {
      env: { ...env, BANKCTL_TOKEN: tokenA },
    });
    expect(asB.code, asB.stderr).toBe(0);
    expect(idOf(asB.stdout)).toBe(userB);
    expect(asB.stderr).toContain('BANKCTL_TOKEN is not used for calls as a user');
    expect(asB.stderr).not.toContain(tokenA);

    const plain = await spawnCli(['api', 'GET', '/api/v1/user', '-o', 'json'], {
      env: { ...env, BANKCTL_TOKEN: tokenA },
    });
    expect(plain.code, plain.stderr).toBe(0);
    expect(idOf(plain.stdout)).toBe(userA);
  });
});

describe('half a client configured', () => {
  it('a client id without a secret says the secret is missing (it said "no client credentials configured")', async () => {
    const r = await spawnCli(['auth', 'token', '--scope', 'user:create'], {
      env: { ...sb.env, BANKCTL_CLIENT_ID: 'abc123', BANKCTL_CLIENT_SECRET: undefined },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('client id abc123 has no client secret configured');
    expect(r.stderr).toContain('BANKCTL_CLIENT_SECRET');
  });
});

describe('auth status and a ready token', () => {
  it('says a ready token is set and where it comes from (never the token)', async () => {
    const r = await spawnCli(['auth', 'status', '-o', 'json'], {
      env: { ...sb.env, BANKCTL_TOKEN: 'ready-token-0123456789' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ token: 'set', tokenSource: 'env' });
    expect(r.stdout).not.toContain('ready-token-0123456789');
  });
});
