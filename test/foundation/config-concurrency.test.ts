// Many bankctl processes sharing one config directory (a CI job's parallel steps): real processes,
// each a read-modify-write of config.json under config.json.lock.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, spawnCli, tempDir } from '../helpers/cli.js';

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
