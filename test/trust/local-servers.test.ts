// The processes and servers bankctl runs on this machine: `sandbox stop` signals only a bankctl
// sandbox, one sandbox per config directory, a busy port is a one-line reason, and the local
// servers answer only requests addressed to them (no DNS rebinding).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Server, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { spawnListener, type Listener } from '../webhooks/helpers.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe('sandbox stop and start', () => {
  test('stop leaves alone a recorded pid that is no longer a bankctl sandbox', async () => {
    const dir = tempDir();
    // the pid of the state file now belongs to some other program of the user
    const other: ChildProcess = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    cleanup.push(() => other.kill('SIGKILL'));
    writeFileSync(
      join(dir, 'sandbox.json'),
      JSON.stringify({ baseUrl: 'http://127.0.0.1:1', linkUrl: 'x', clientId: 'c', clientSecret: 's', pid: other.pid }),
      { mode: 0o600 },
    );
    const r = await spawnCli(['sandbox', 'stop'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`process ${other.pid}.*no longer a bankctl sandbox`));
    await new Promise((res) => setTimeout(res, 200));
    expect(alive(other.pid!)).toBe(true);
  });

  test('stop of a dead sandbox removes its state under the lock, and keeps the state of one started since', async () => {
    const dir = tempDir();
    const env = { BANKCTL_CONFIG_DIR: dir };
    const file = join(dir, 'sandbox.json');
    const state = (pid: number, port: number) =>
      JSON.stringify({ baseUrl: `http://127.0.0.1:${port}`, linkUrl: 'x', clientId: 'c', clientSecret: 's', pid });
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((r) => gone.on('exit', r));
    writeFileSync(file, state(gone.pid!, 1), { mode: 0o600 });
    // a start is claiming the file: it holds the lock (this live process's pid)
    writeFileSync(`${file}.lock`, `${process.pid}\n`, { mode: 0o600 });
    let exited = false;
    const stop = spawnCli(['sandbox', 'stop'], { env }).finally(() => (exited = true));
    await new Promise((r) => setTimeout(r, 1500));
    expect(exited).toBe(false);
    expect(existsSync(file)).toBe(true);
    // the start writes its own state, then lets go
    writeFileSync(file, state(process.pid, 2), { mode: 0o600 });
    rmSync(`${file}.lock`);
    const r = await stop;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`pid ${gone.pid}\\) had ended; one started since has claimed the file`));
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
    // with no start in between, the dead one's file goes
    writeFileSync(file, state(gone.pid!, 1), { mode: 0o600 });
    const again = await spawnCli(['sandbox', 'stop'], { env });
    expect(again.stderr).toContain('removed a stale state file');
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  test("stop leaves alone another directory's sandbox that was given the recorded pid (its start time differs)", async () => {
    const other = { BANKCTL_CONFIG_DIR: tempDir() };
    const started = await spawnCli(['sandbox', 'start', '--detach', '--port', '0', '-o', 'json'], { env: other });
    expect(started.code, started.stderr).toBe(0);
    cleanup.push(() => spawnCli(['sandbox', 'stop'], { env: other }));
    const theirs = JSON.parse(readFileSync(join(other.BANKCTL_CONFIG_DIR, 'sandbox.json'), 'utf8'));
    let start: string;
    try {
      const stat = readFileSync(`/proc/${theirs.pid}/stat`, 'utf8');
      start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
    } catch {
      return; // no /proc: start times are not known here
    }
    expect(theirs.pidStart).toBe(start);
    // this directory's sandbox had that pid once, and was killed before the other started
    const dir = tempDir();
    writeFileSync(
      join(dir, 'sandbox.json'),
      JSON.stringify({ ...theirs, baseUrl: 'http://127.0.0.1:1', pidStart: String(BigInt(start) - 1n) }),
      { mode: 0o600 },
    );
    // the default profile of this directory does not take the dead sandbox's address and client
    const e = await spawnCli(['config', 'explain', '-o', 'json'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(e.code, e.stderr).toBe(0);
    const baseUrl = (JSON.parse(e.stdout) as Array<{ key: string; source: string }>).find((s) => s.key === 'base-url');
    expect(baseUrl?.source).toBe('default');
    const r = await spawnCli(['sandbox', 'stop'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`process ${theirs.pid}, .* was started after the sandbox`));
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(false);
    await new Promise((res) => setTimeout(res, 300));
    expect(alive(theirs.pid)).toBe(true);
  });

  test('a second --detach in the same config directory refuses (exit 5) and names the running one', async () => {
    const dir = tempDir();
    const env = { BANKCTL_CONFIG_DIR: dir };
    const first = await spawnCli(['sandbox', 'start', '--detach', '--port', '0', '-o', 'json'], { env });
    expect(first.code).toBe(0);
    cleanup.push(() => spawnCli(['sandbox', 'stop'], { env }));
    const ready = JSON.parse(first.stdout);
    const second = await spawnCli(['sandbox', 'start', '--detach', '--port', '0', '-o', 'json'], { env });
    expect(second.code).toBe(5);
    expect(second.stdout).toBe('');
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toContain(ready.baseUrl);
    expect(second.stderr).toMatch(/already running .*pid \d+/);
    // the first one still serves, and stop still finds it
    const v = await spawnCli(['version', '-o', 'json'], { env });
    expect(JSON.parse(v.stdout).server.version).toBeTruthy();
    const stopped = await spawnCli(['sandbox', 'stop'], { env });
    expect(stopped.stderr).toContain(`sandbox at ${ready.baseUrl} stopped`);
  });

  test('--detach on a busy port prints the one-line reason', async () => {
    const busy: Server = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise((r) => busy.close(r)));
    const port = (busy.address() as AddressInfo).port;
    const r = await spawnCli(['sandbox', 'start', '--detach', '--port', String(port)], {
      env: { BANKCTL_CONFIG_DIR: tempDir() },
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`^error: port ${port} on 127.0.0.1 is already in use`));
    expect(r.stderr).not.toContain('sandbox.log');
  });
});

/** A GET with a chosen Host header (fetch does not let one set it). */
function getWithHost(url: string, host: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('DNS rebinding: the local servers answer only their own names', () => {
  let t: TestEnv;
  let listener: Listener;
  beforeAll(async () => {
    t = await startTestSandbox();
    listener = await spawnListener(['--secret', 'x'.repeat(16)], t.env);
  });
  afterAll(async () => {
    listener?.kill('SIGKILL');
    await t?.close();
  });

  test('the sandbox: a page of evil.example rebound to 127.0.0.1 reads nothing', async () => {
    const port = new URL(t.sandbox.baseUrl).port;
    const evil = await getWithHost(`${t.sandbox.baseUrl}/api/v1/providers/SE`, `evil.example:${port}`);
    expect(evil.status).toBe(421);
    expect(evil.body).not.toContain('provider');
    const link = await getWithHost(`${t.sandbox.baseUrl}/link/1.0/authorize/?client_id=x`, 'evil.example');
    expect(link.status).toBe(421);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'app.localhost'])
      expect((await getWithHost(`${t.sandbox.baseUrl}/version`, host)).status, host).toBe(200);
  });

  test('webhooks listen: the same', async () => {
    const evil = await getWithHost(listener.url, `evil.example:${listener.port}`, 'POST');
    expect(evil.status).toBe(421);
    expect((await getWithHost(listener.url, `127.0.0.1:${listener.port}`, 'POST')).status).toBe(400);
  });
});
