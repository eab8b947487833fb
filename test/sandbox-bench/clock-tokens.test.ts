// `$(bankctl auth token)` after the sandbox's clock moved or its data was reset: the token cache
// judges expiry by the real clock, the sandbox by its own. A token the cache hands out must be one
// the sandbox takes (before, a day's advance left a dead token printed with exit 0).
import { describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/commands.js';

const sb = useSandbox();

async function token(): Promise<string> {
  const r = await runCli(['auth', 'token', '--scope', 'user:create'], { env: sb.env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

/** The status the sandbox answers a client-token request with this token. */
async function statusWith(t: string): Promise<number> {
  const r = await fetch(`${sb.t.sandbox.baseUrl}/api/v1/user/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
    body: JSON.stringify({ external_user_id: `u-${Math.random()}`, market: 'SE', locale: 'en_US' }),
  });
  await r.arrayBuffer();
  return r.status;
}

async function sandbox(...args: string[]): Promise<void> {
  const r = await runCli(['sandbox', ...args, '-o', 'json'], { env: sb.env });
  expect(r.code, r.stderr).toBe(0);
}

describe('cached tokens follow the sandbox clock', () => {
  test('advance past the expiry: auth token fetches a new token, which the sandbox takes', async () => {
    const first = await token();
    expect(await token(), 'cached while valid').toBe(first);
    expect(await statusWith(first)).toBe(200);
    await sandbox('clock', 'advance', '1d');
    expect(await statusWith(first), 'the sandbox refuses the old token').toBe(401);
    const second = await token();
    expect(second).not.toBe(first);
    expect(await statusWith(second)).toBe(200);
  });

  test('a short advance keeps the token, and its end moves closer by as much', async () => {
    const t = await token();
    await sandbox('clock', 'advance', '10m');
    expect(await token()).toBe(t);
    expect(await statusWith(t)).toBe(200);
    // 30 minutes of life: after 10 + 19 more it is within the cache's margin and renewed
    await sandbox('clock', 'advance', '19m');
    const renewed = await token();
    expect(renewed).not.toBe(t);
    expect(await statusWith(renewed)).toBe(200);
  });

  test('set back in time: the cached token stays, and the sandbox still takes it', async () => {
    const t = await token();
    await sandbox('clock', 'set', '2026-01-01');
    expect(await token()).toBe(t);
    expect(await statusWith(t)).toBe(200);
  });

  test('reset --keep-clients: the sandbox dropped every token, so the cache does too', async () => {
    const t = await token();
    await sandbox('reset', '--keep-clients', '--yes');
    expect(await statusWith(t)).toBe(401);
    const fresh = await token();
    expect(fresh).not.toBe(t);
    expect(await statusWith(fresh)).toBe(200);
  });
});
