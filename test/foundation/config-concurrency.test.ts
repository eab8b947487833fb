// Many bankctl processes sharing one config directory (a CI job's parallel steps): real processes,
// each a read-modify-write of config.json under config.json.lock.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, spawnCli, tempDir } from '../helpers/cli.js';
import { underCI } from '../helpers/requires.js';

/** A real process that first writes its own pid into `lock` (a lock left by an earlier life of that pid), then runs bankctl. */
function runWithOwnPidInLock(lock: string, args: string[], env: Record<string, string>) {
  const script = `require('node:fs').writeFileSync(${JSON.stringify(lock)}, process.pid + '\\n');
process.argv = [process.execPath, ${JSON.stringify(BIN)}, ...${JSON.stringify(args)}];
require(${JSON.stringify(BIN)});`;
  return new Promise<{ code: number; stderr: string; ms: number }>((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, ['-e', script], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stderr, ms: Date.now() - t0 });
    });
  });
}

describe('one config directory, many processes', () => {
  it('parallel `config set` of different profiles loses none, and the files stay 0600 with no lock left', async () => {
    const dir = tempDir();
    const env = { BANKCTL_CONFIG_DIR: dir };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        spawnCli(['config', 'set', 'timeout', String(i + 1), '--profile', `p${i}`], { env }),
      ),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const file = join(dir, 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, { timeout: string }> };
    for (let i = 0; i < 10; i++) expect(config.profiles[`p${i}`]?.timeout).toBe(String(i + 1));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(`${file}.lock`)).toBe(false);
  }, 60_000);

  it('a lock naming this very pid (left by a killed earlier process the same pid) is taken over at once', async () => {
    const dir = tempDir();
    const lock = join(dir, 'config.json.lock');
    writeFileSync(join(dir, 'config.json'), '{"profiles":{"default":{"retries":"2"}}}\n', { mode: 0o600 });
    const r = await runWithOwnPidInLock(lock, ['config', 'set', 'timeout', '9'], { BANKCTL_CONFIG_DIR: dir });
    expect(r.stderr).not.toMatch(/locked by/);
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(10_000);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: Record<string, object> };
    expect(config.profiles.default).toEqual({ retries: '2', timeout: '9' });
    expect(existsSync(lock)).toBe(false);
  }, 60_000);
});

describe('the token cache of a config directory reused run after run', () => {
  it('drops expired tokens (no usable refresh token) when parallel processes cache new ones', async () => {
    const { startTestSandbox } = await import('../helpers/sandbox.js');
    const t = await startTestSandbox();
    try {
      const now = Date.now();
      const old = (i: number, extra: object = {}) => ({
        accessToken: `old-${i}`,
        scope: 'user:read',
        expiresAt: now - 3_600_000,
        kind: 'user',
        user: `id:u${i}`,
        baseUrl: `http://127.0.0.1:${40000 + i}`,
        ...extra,
      });
      const seeded: Record<string, object> = {};
      for (let i = 0; i < 200; i++) seeded[`user:http://127.0.0.1:${40000 + i}:c:id:u${i}:user:read`] = old(i);
      seeded.refreshable = old(999, { refreshToken: 'r-1' });
      seeded.refreshGone = old(998, { refreshToken: 'r-2', refreshExpiresAt: now - 1000 });
      seeded.live = { ...old(997), expiresAt: now + 3_600_000 };
      const file = join(t.configDir, 'tokens.json');
      writeFileSync(file, JSON.stringify({ default: seeded, other: { kept: old(1) } }), { mode: 0o600 });
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await spawnCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env: t.env });
        expect(r.code, r.stderr).toBe(0);
        ids.push((JSON.parse(r.stdout) as { user_id: string }).user_id);
      }
      const tokens = await Promise.all(ids.map((id) => spawnCli(['auth', 'token', '--user', id], { env: t.env })));
      for (const r of tokens) expect(r.code, r.stderr).toBe(0);
      const cache = JSON.parse(readFileSync(file, 'utf8')) as Record<
        string,
        Record<string, { accessToken: string; user?: string }>
      >;
      const keys = Object.keys(cache.default);
      expect(keys.filter((k) => k.endsWith(':user:read') && cache.default[k].accessToken.startsWith('old-'))).toEqual(
        [],
      );
      expect(keys).toEqual(expect.arrayContaining(['refreshable', 'live']));
      expect(keys).not.toContain('refreshGone');
      expect(Object.keys(cache.other)).toEqual(['kept']);
      // every user's own token, each cached under its user
      ids.forEach((id, i) => {
        const mine = Object.values(cache.default).filter((c) => c.user === `id:${id}`);
        expect(mine.map((c) => c.accessToken)).toEqual([tokens[i].stdout.trim()]);
      });
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('sandbox start --detach on a full config disk', () => {
  it('is one line naming the config directory and the reason, not "see" an empty log', async (ctx) => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { mkdirSync } = await import('node:fs');
    const run = promisify(execFile);
    const mnt = tempDir();
    try {
      await run('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', mnt]);
    } catch (err) {
      // a full disk needs a small filesystem of its own: root and mount (CI runs as root)
      const reason = `needs to mount a small tmpfs (${(err as Error).message.split('\n')[0]})`;
      if (underCI()) throw new Error(`CI=true and this test ${reason}`, { cause: err });
      process.stderr.write(`skipped: test/foundation/config-concurrency.test.ts: ${reason}\n`);
      ctx.skip();
    }
    try {
      const dir = join(mnt, 'cfg');
      mkdirSync(dir, { mode: 0o700 });
      await run('dd', ['if=/dev/zero', `of=${join(mnt, 'fill')}`, 'bs=1k', 'count=64']).catch(() => undefined);
      const r = await spawnCli(['sandbox', 'start', '--port', '0', '--detach'], { env: { BANKCTL_CONFIG_DIR: dir } });
      expect(r.stderr).toMatch(/no space left on the device \(ENOSPC\)/);
      expect(r.stderr).toContain(dir);
      expect(r.stderr).not.toMatch(/see .*sandbox\.log/);
      expect(r.code).toBe(2);
    } finally {
      await run('umount', [mnt]);
    }
  }, 60_000);
});
