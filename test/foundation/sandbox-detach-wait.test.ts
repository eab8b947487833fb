// `sandbox start --detach` with a child that is slow to get ready, or never does: it is waited for
// while it loads, and stopped (never left behind) when the wait runs out or the parent is stopped.
// Real processes.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN, spawnCli, tempDir } from '../helpers/cli.js';

/**
 * Preloaded (NODE_OPTIONS=--require) into the parent and its detached child alike; only the child
 * (`sandbox start` without --detach) hangs, as one reading a FIFO or loading a huge state file does:
 * it writes its pid, ignores TERM (a process blocked in a synchronous read never runs a handler), and
 * blocks for HANG_MS, or for ever.
 */
const HANG = `
if (process.argv.includes('start') && !process.argv.includes('--detach')) {
  require('node:fs').writeFileSync(process.env.HANG_PID_FILE, String(process.pid));
  process.on('SIGTERM', () => {});
  const ms = Number(process.env.HANG_MS || 0);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms > 0 ? ms : undefined);
}
`;

function hangEnv(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  const script = join(dir, 'hang.cjs');
  writeFileSync(script, HANG);
  return {
    BANKCTL_CONFIG_DIR: join(dir, 'config'),
    NODE_OPTIONS: `--require ${script}`,
    HANG_PID_FILE: join(dir, 'child.pid'),
    ...extra,
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The hanging child's pid; killed for good when a test fails (without the fix it was left running). */
function childPid(dir: string): number {
  return Number(readFileSync(join(dir, 'child.pid'), 'utf8'));
}
function killLeftover(dir: string): void {
  if (!existsSync(join(dir, 'child.pid'))) return;
  try {
    process.kill(-childPid(dir), 'SIGKILL');
  } catch {
    // gone, as it should be
  }
}

async function until(what: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('sandbox start --detach waits for a slow child and never leaves one behind', () => {
  test('a child that never gets ready is stopped (TERM, then KILL) when the wait runs out: exit 8', async () => {
    const dir = tempDir();
    try {
      // BANKCTL_TEST_DETACH_WAIT_MS: the bound (5 min) made short for this test
      const r = await spawnCli(['sandbox', 'start', '--detach', '--port', '0'], {
        env: hangEnv(dir, { BANKCTL_TEST_DETACH_WAIT_MS: '1500' }),
      });
      const pid = childPid(dir);
      expect(r.stderr).toContain(`the sandbox was not ready after 1.5 s; stopped it (pid ${pid})`);
      expect(r.code).toBe(8);
      expect(alive(pid)).toBe(false);
      expect(existsSync(join(dir, 'config', 'sandbox.json'))).toBe(false);
    } finally {
      killLeftover(dir);
    }
  });

  test.each(['SIGINT', 'SIGTERM'] as const)(
    '%s of the waiting parent stops the child too: exit 130',
    async (signal) => {
      const dir = tempDir();
      try {
        const parent = spawn(process.execPath, [BIN, 'sandbox', 'start', '--detach', '--port', '0'], {
          env: { PATH: process.env.PATH, ...hangEnv(dir) },
        });
        let stderr = '';
        parent.stderr.on('data', (c) => (stderr += c));
        const code = new Promise<number | null>((r) => parent.once('exit', (c) => r(c)));
        await until(() => existsSync(join(dir, 'child.pid')));
        const pid = childPid(dir);
        parent.kill(signal);
        expect(await code).toBe(130);
        expect(stderr).toContain(`interrupted while the sandbox was starting; stopped it (pid ${pid})`);
        expect(alive(pid)).toBe(false);
      } finally {
        killLeftover(dir);
      }
    },
  );

  test('a child slow to load is waited for, and the wait says so once: exit 0, a working sandbox', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.json');
    const env = hangEnv(dir, { HANG_MS: '2600' });
    // a state file to load: made by a sandbox that is not slow
    const plain = { BANKCTL_CONFIG_DIR: join(dir, 'other') };
    expect((await spawnCli(['sandbox', 'start', '--detach', '--port', '0', '--data', data], { env: plain })).code).toBe(
      0,
    );
    expect((await spawnCli(['users', 'create', '--market', 'SE'], { env: plain })).code).toBe(0);
    expect((await spawnCli(['sandbox', 'stop'], { env: plain })).code).toBe(0);
    try {
      const r = await spawnCli(['sandbox', 'start', '--detach', '--port', '0', '--data', data, '-o', 'json'], { env });
      expect(r.code, r.stderr).toBe(0);
      const notices = r.stderr.match(/still starting/g) ?? [];
      expect(notices).toHaveLength(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^sandbox: still starting \\(pid ${childPid(dir)}\\), loading the state file ${data} \\(\\d+ kB\\); waiting up to 5 min$`,
          'm',
        ),
      );
      const ready = JSON.parse(r.stdout);
      const v = await spawnCli(['version', '-o', 'json'], { env: { ...env, BANKCTL_BASE_URL: ready.baseUrl } });
      expect(JSON.parse(v.stdout).server.version).toBeTruthy();
    } finally {
      await spawnCli(['sandbox', 'stop'], { env });
      killLeftover(dir);
    }
  });
});
