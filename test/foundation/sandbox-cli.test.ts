// `bankctl sandbox start|stop` as a user runs them: real processes.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { BIN, removeDir, spawnCli, tempDir } from '../helpers/cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

describe('sandbox start and stop', () => {
  test('foreground: one readiness line with -o json, the printed client works, Ctrl-C stops it with 130', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '-o', 'json'], {
      env: { PATH: process.env.PATH, BANKCTL_CONFIG_DIR: dir },
    });
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    const ready = JSON.parse(line);
    expect(Object.keys(ready).sort()).toEqual(['baseUrl', 'clientId', 'clientSecret', 'connectorToken', 'linkUrl']);
    expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.linkUrl).toBe(`${ready.baseUrl}/link`);
    const state = join(dir, 'sandbox.json');
    expect(statSync(state).mode & 0o777).toBe(0o600);
    // the default profile picks up the running sandbox's client: no login needed
    const created = await spawnCli(['users', 'create', '--market', 'SE', '-o', 'json'], {
      env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_BASE_URL: ready.baseUrl },
    });
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout).user_id).toBeTruthy();
    // and with no base URL configured at all, the running sandbox is the service, on its own port
    const plain = await spawnCli(
      ['connector', 'users', 'create', '--external-id', 'sb-user', '--user-token', 'sb-token', '--market', 'SE'],
      { env: { BANKCTL_CONFIG_DIR: dir } },
    );
    expect(plain.stderr).toContain('activated user sb-user');
    expect(plain.code).toBe(0);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    // interrupted: the contract's 130
    expect(code).toBe(130);
    expect(existsSync(state)).toBe(false);
  });

  test('--detach returns once ready; stop ends it; a second stop is harmless', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const env = { BANKCTL_CONFIG_DIR: dir };
    const started = await spawnCli(['sandbox', 'start', '--detach', '--port', '0', '-o', 'json'], { env });
    expect(started.code).toBe(0);
    const ready = JSON.parse(started.stdout);
    const v = await spawnCli(['version', '-o', 'json'], { env: { ...env, BANKCTL_BASE_URL: ready.baseUrl } });
    expect(JSON.parse(v.stdout).server.version).toBeTruthy();
    const stopped = await spawnCli(['sandbox', 'stop'], { env });
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toMatch(/stopped/);
    const after = await spawnCli(['version', '-o', 'json'], { env: { ...env, BANKCTL_BASE_URL: ready.baseUrl } });
    expect(JSON.parse(after.stdout).server).toBeNull();
    const again = await spawnCli(['sandbox', 'stop'], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/no sandbox is running/);
  });

  test('a sandbox.json that cannot be read: stop and start are exit 2 naming it, the running sandbox is kept', async () => {
    // stop said "no sandbox is running" (exit 0) and left it running; a second start beside it
    // overwrote its record, so that no `sandbox stop` could find the first one again
    const dir = tempDir();
    dirs.push(dir);
    const env = { BANKCTL_CONFIG_DIR: dir };
    const started = await spawnCli(['sandbox', 'start', '--detach', '--port', '0', '-o', 'json'], { env });
    expect(started.code, started.stderr).toBe(0);
    const file = join(dir, 'sandbox.json');
    const good = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, '{"baseUrl": ', { mode: 0o600 });
      for (const args of [
        ['sandbox', 'stop'],
        ['sandbox', 'start', '--detach', '--port', '0'],
      ]) {
        const r = await spawnCli(args, { env });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain(`${file}:1:13 is not a readable sandbox state file`);
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
      expect(readFileSync(file, 'utf8')).toBe('{"baseUrl": ');
    } finally {
      writeFileSync(file, good, { mode: 0o600 });
      const stopped = await spawnCli(['sandbox', 'stop'], { env });
      expect(stopped.stderr).toMatch(/stopped/);
    }
  });

  test('--jq and --fields shape the ready line (they were ignored: the whole object came out)', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const env = { BANKCTL_CONFIG_DIR: dir };
    const started = await spawnCli(['sandbox', 'start', '--detach', '--port', '0', '--jq', '.baseUrl'], { env });
    await spawnCli(['sandbox', 'stop'], { env });
    expect([started.code, started.stderr]).toEqual([0, '']);
    expect(started.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
    const fields = await spawnCli(['sandbox', 'start', '--detach', '--port', '0', '--fields', 'baseUrl,clientId'], {
      env,
    });
    await spawnCli(['sandbox', 'stop'], { env });
    expect([fields.code, fields.stderr]).toEqual([0, '']);
    expect(Object.keys(JSON.parse(fields.stdout))).toEqual(['baseUrl', 'clientId']);
  });

  test('--detach --tls: the profile it serves trusts its CA, with no --ca-file', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const env = { BANKCTL_CONFIG_DIR: dir };
    const started = await spawnCli(['sandbox', 'start', '--detach', '--tls', '--port', '0', '-o', 'json'], { env });
    expect(started.code, started.stderr).toBe(0);
    try {
      expect(JSON.parse(started.stdout).baseUrl).toMatch(/^https:/);
      const v = await spawnCli(['version', '-o', 'json'], { env });
      expect(JSON.parse(v.stdout).server?.version, v.stderr).toBeTruthy();
      const u = await spawnCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env });
      expect(u.code, u.stderr).toBe(0);
      // another https server is not trusted through it
      const other = await spawnCli(['version', '-o', 'json'], {
        env: { ...env, BANKCTL_BASE_URL: 'https://127.0.0.1:1' },
      });
      expect(JSON.parse(other.stdout).server).toBeNull();
    } finally {
      await spawnCli(['sandbox', 'stop'], { env });
    }
  });

  test('--tls: the CA file is there while it runs and goes with `sandbox stop`; one written since by another stays', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const env = { BANKCTL_CONFIG_DIR: dir };
    const started = await spawnCli(['sandbox', 'start', '--detach', '--tls', '--port', '0', '-o', 'json'], { env });
    expect(started.code, started.stderr).toBe(0);
    const { caFile } = JSON.parse(started.stdout) as { caFile: string };
    expect(caFile).toBe(join(dir, 'sandbox-ca.pem'));
    expect(readFileSync(caFile, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const stopped = await spawnCli(['sandbox', 'stop'], { env });
    expect(stopped.code, stopped.stderr).toBe(0);
    // its key died with the sandbox and the next start makes a new CA: nothing left to trust
    expect(existsSync(caFile)).toBe(false);
    // a file that is not the one this sandbox wrote (another start's) is not removed
    const again = await spawnCli(['sandbox', 'start', '--detach', '--tls', '--port', '0', '-o', 'json'], { env });
    expect(again.code, again.stderr).toBe(0);
    writeFileSync(caFile, "not this sandbox's CA\n");
    await spawnCli(['sandbox', 'stop'], { env });
    expect(readFileSync(caFile, 'utf8')).toBe("not this sandbox's CA\n");
  });

  test('a port in use is a clear usage error', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const env = { BANKCTL_CONFIG_DIR: dir };
    const first = JSON.parse(
      (await spawnCli(['sandbox', 'start', '--detach', '--port', '0', '-o', 'json'], { env })).stdout,
    );
    const port = new URL(first.baseUrl).port;
    try {
      const second = await spawnCli(['sandbox', 'start', '--port', port], { env: { BANKCTL_CONFIG_DIR: tempDir() } });
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(new RegExp(`port ${port} on 127.0.0.1 is already in use`));
      // the hint asked whether "a sandbox of this config" ran and pointed at `sandbox stop`, which in
      // this config directory stops nothing: one of its own was refused before with exit 5
      expect(second.stderr).not.toMatch(/of this config/);
      expect(second.stderr).toMatch(/another config directory .*--port 0 takes any free one/);
      expect(second.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      await spawnCli(['sandbox', 'stop'], { env });
    }
  });
});
