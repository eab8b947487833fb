// `sandbox start --data FILE`: a FILE that is not a regular file is refused before anything starts,
// and FILE.lock is held while a sandbox uses it: two sandboxes (of two config directories) on one
// file would overwrite each other's snapshots, the last writer winning silently. Real processes.
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN, spawnCli, tempDir } from '../helpers/cli.js';

function cfg(dir: string, name: string): { BANKCTL_CONFIG_DIR: string } {
  return { BANKCTL_CONFIG_DIR: join(dir, name) };
}

async function detached(env: Record<string, string>, data: string, ...extra: string[]) {
  return spawnCli(['sandbox', 'start', '--detach', '--port', '0', '--data', data, '-o', 'json', ...extra], { env });
}

/** The pid a lock names: its first line (a second, where /proc tells it, is that process's start time). */
function lockPid(data: string): string {
  return readFileSync(`${data}.lock`, 'utf8').split('\n')[0]!;
}

function pidOf(env: { BANKCTL_CONFIG_DIR: string }): number {
  return JSON.parse(readFileSync(join(env.BANKCTL_CONFIG_DIR, 'sandbox.json'), 'utf8')).pid;
}

describe('one sandbox per --data file', () => {
  test('a second sandbox on the same file is refused with exit 5 naming the pid; free again once stopped', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.json');
    const a = cfg(dir, 'a');
    const b = cfg(dir, 'b');
    expect((await detached(a, data)).code).toBe(0);
    try {
      const pid = pidOf(a);
      expect(lockPid(data)).toBe(String(pid));
      const refusal = `error: a sandbox is already using the --data file ${data}: pid ${pid}`;
      const fg = await spawnCli(['sandbox', 'start', '--port', '0', '--data', data], { env: b });
      expect(fg.stderr).toContain(refusal);
      expect(fg.code).toBe(5);
      const bg = await detached(b, data);
      expect(bg.stderr).toContain(refusal);
      expect(bg.code).toBe(5);
      expect(existsSync(join(b.BANKCTL_CONFIG_DIR, 'sandbox.json'))).toBe(false);
    } finally {
      expect((await spawnCli(['sandbox', 'stop'], { env: a })).code).toBe(0);
    }
    expect(existsSync(`${data}.lock`)).toBe(false);
    const again = await detached(b, data);
    expect(again.code, again.stderr).toBe(0);
    await spawnCli(['sandbox', 'stop'], { env: b });
  });

  test('a sandbox killed with -9 leaves a lock the next start takes over (its pid is dead)', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.json');
    const a = cfg(dir, 'a');
    expect((await detached(a, data)).code).toBe(0);
    const pid = pidOf(a);
    process.kill(pid, 'SIGKILL');
    while (existsSync(`/proc/${pid}`)) await new Promise((r) => setTimeout(r, 20));
    expect(lockPid(data)).toBe(String(pid));
    const b = cfg(dir, 'b');
    const next = await detached(b, data);
    expect(next.code, next.stderr).toBe(0);
    expect(lockPid(data)).toBe(String(pidOf(b)));
    await spawnCli(['sandbox', 'stop'], { env: b });
  });

  test.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    'a foreground sandbox stopped by %s lets go of the file',
    async (signal) => {
      const dir = tempDir();
      const data = join(dir, 'state.json');
      const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '-o', 'json', '--data', data], {
        env: { PATH: process.env.PATH, ...cfg(dir, 'a') },
      });
      const exited = new Promise((r) => child.once('exit', (c) => r(c)));
      try {
        await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
        expect(lockPid(data)).toBe(String(child.pid));
      } finally {
        child.kill(signal);
      }
      expect(await exited).toBe(130);
      expect(existsSync(`${data}.lock`)).toBe(false);
    },
  );

  test('a start that fails after taking the lock (its port in use) lets go of it', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.json');
    const a = cfg(dir, 'a');
    const busy = JSON.parse(
      (await spawnCli(['sandbox', 'start', '--detach', '--port', '0', '-o', 'json'], { env: a })).stdout,
    );
    try {
      const port = new URL(busy.baseUrl).port;
      for (const extra of [[], ['--detach']]) {
        const r = await spawnCli(['sandbox', 'start', '--port', port, '--data', data, ...extra], {
          env: cfg(dir, 'b'),
        });
        expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
        expect(r.code).toBe(2);
        expect(existsSync(`${data}.lock`)).toBe(false);
      }
    } finally {
      await spawnCli(['sandbox', 'stop'], { env: a });
    }
  });
});

describe('sandbox start --data that is not a regular file', () => {
  test.each([[[]], [['--detach']]])('a FIFO or a directory is refused up front with exit 2 %j', async (extra) => {
    const dir = tempDir();
    const env = { BANKCTL_CONFIG_DIR: join(dir, 'config') };
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    try {
      // without the check, a FIFO blocked the start for ever: a short timeout shows it
      const f = await spawnCli(['sandbox', 'start', '--port', '0', '--data', fifo, ...extra], { env, timeoutMs: 8000 });
      expect(f.stderr.trim()).toBe(`error: --data: ${fifo} is a FIFO, not a regular file; give a file name`);
      expect(f.code).toBe(2);
      const d = await spawnCli(['sandbox', 'start', '--port', '0', '--data', sub, ...extra], { env });
      expect(d.stderr.trim()).toBe(`error: --data: ${sub} is a directory; give a file name`);
      expect(d.code).toBe(2);
      expect(existsSync(join(dir, 'config', 'sandbox.json'))).toBe(false);
    } finally {
      // a reader still blocked on the FIFO (a start without the check) gets its end of file, and ends
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // no reader (ENXIO): nothing was left blocked
      }
    }
  });
});
