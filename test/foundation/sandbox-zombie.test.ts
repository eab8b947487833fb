// A sandbox that has ended but whose parent never collects its exit status stays a zombie: its pid
// still answers a signal 0. That is the everyday case in a container whose PID 1 does not reap
// (`sleep infinity`, `tail -f /dev/null`), where a detached sandbox ends up. Such a sandbox is not
// running: `sandbox stop` waited 10 s for it to end and failed, and commands kept using its URL.
// Real processes: a sandbox whose parent is a `sleep` that never waits.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, test } from 'vitest';
import { BIN, spawnCli, tempDir } from '../helpers/cli.js';

const parents: ChildProcess[] = [];
afterEach(() => {
  // the sleep goes; its zombie child is then reaped by init
  for (const p of parents.splice(0)) p.kill('SIGKILL');
});

function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return undefined;
  }
}

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A foreground sandbox whose parent is a `sleep` (sh exec'd into it): nothing reaps it when it ends. */
async function orphanedSandbox(dir: string): Promise<{ pid: number; baseUrl: string }> {
  const parent = spawn(
    'sh',
    ['-c', '"$0" "$1" sandbox start --port 0 --auth-delay 5 -o json & exec sleep 120', process.execPath, BIN],
    {
      env: { PATH: process.env.PATH, BANKCTL_CONFIG_DIR: dir },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  parents.push(parent);
  const line = await new Promise<string>((resolve) => createInterface({ input: parent.stdout! }).once('line', resolve));
  const ready = JSON.parse(line) as { baseUrl: string };
  const state = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8')) as { pid: number };
  return { pid: state.pid, baseUrl: ready.baseUrl };
}

describe.skipIf(!existsSync('/proc/self/stat'))('a sandbox that ended but was not reaped (a zombie)', () => {
  test('sandbox stop: stopped at once, exit 0 (it waited 10 s for the zombie and failed)', async () => {
    const dir = tempDir();
    const { pid } = await orphanedSandbox(dir);
    const t0 = Date.now();
    const r = await spawnCli(['sandbox', 'stop'], { env: { BANKCTL_CONFIG_DIR: dir } });
    // the sandbox did end, and is a zombie now: the situation this test is about
    expect(procState(pid)).toBe('Z');
    expect(r.stderr).toMatch(/^sandbox at http:\/\/127\.0\.0\.1:\d+ stopped\n$/);
    expect(r.code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(8000);
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(false);
  });

  test('kill -9: not taken for a running sandbox by the verbs or by stop', async () => {
    const dir = tempDir();
    const env = { BANKCTL_CONFIG_DIR: dir };
    const { pid, baseUrl } = await orphanedSandbox(dir);
    process.kill(pid, 'SIGKILL');
    await until('the zombie', () => procState(pid) === 'Z');
    // its URL is not served as "the running sandbox": the one-line answer, no retries against a dead port
    const logs = await spawnCli(['sandbox', 'logs'], { env: { ...env, BANKCTL_BASE_URL: baseUrl } });
    expect(logs.stderr).toMatch(
      new RegExp(`^error: \`sandbox logs\` needs the bankctl sandbox, and no sandbox is running at ${baseUrl} `),
    );
    expect(logs.code).toBe(2);
    const status = await spawnCli(['sandbox', 'status'], { env });
    expect(status.stderr).toMatch(new RegExp(`^error: no sandbox is running for .*\\(pid ${pid}\\) has ended `));
    expect(status.code).toBe(2);
    const stop = await spawnCli(['sandbox', 'stop'], { env });
    expect(stop.stderr).toBe('no sandbox is running (removed a stale state file)\n');
    expect(stop.code).toBe(0);
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(false);
  });
});
