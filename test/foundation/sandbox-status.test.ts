// `bankctl sandbox status` as a user runs it: is the sandbox of this config directory running, where.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('sandbox status', () => {
  test('none started: exit 2, one line naming the config directory', async () => {
    const dir = tempDir();
    const r = await spawnCli(['sandbox', 'status'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(r.stderr).toBe(
      `error: no sandbox is running for ${dir} (start one with \`bankctl sandbox start --detach\`)\n`,
    );
    expect([r.code, r.stdout]).toEqual([2, '']);
  });

  test('running: its URLs, pid and client id (no secret), exit 0; killed: exit 2 naming the stale file, kept', async () => {
    const dir = tempDir();
    const env = { BANKCTL_CONFIG_DIR: dir };
    const started = await spawnCli(['sandbox', 'start', '--detach', '--port', '0', '-o', 'json'], { env });
    expect(started.code, started.stderr).toBe(0);
    const ready = JSON.parse(started.stdout) as { baseUrl: string; clientId: string; clientSecret: string };
    let pid = 0;
    try {
      const r = await spawnCli(['sandbox', 'status', '-o', 'json'], { env });
      expect([r.code, r.stderr]).toEqual([0, '']);
      const status = JSON.parse(r.stdout) as Record<string, unknown>;
      pid = status.pid as number;
      expect(status).toEqual({
        running: true,
        baseUrl: ready.baseUrl,
        linkUrl: `${ready.baseUrl}/link`,
        pid: expect.any(Number),
        clientId: ready.clientId,
      });
      expect(r.stdout).not.toContain(ready.clientSecret);
      const jq = await spawnCli(['sandbox', 'status', '--jq', '.baseUrl'], { env });
      expect(jq.stdout).toBe(`${ready.baseUrl}\n`);
    } finally {
      if (pid) process.kill(pid, 'SIGKILL');
    }
    await until('the killed sandbox to be gone', () => !alive(pid));
    const stale = await spawnCli(['sandbox', 'status'], { env });
    expect(stale.stderr.trimEnd().split('\n')).toEqual([
      `error: no sandbox is running for ${dir}: the one recorded in ${join(dir, 'sandbox.json')} (pid ${pid}) has ended ` +
        '(start one with `bankctl sandbox start --detach`; `bankctl sandbox stop` removes the stale file)',
    ]);
    expect(stale.code).toBe(2);
    // read only: the stale file is for `sandbox stop` to remove
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(true);
  });

  test('a state file that cannot be read: exit 2 naming it', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'sandbox.json'), '{', { mode: 0o600 });
    const r = await spawnCli(['sandbox', 'status'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(r.stderr).toMatch(/^error: .*sandbox\.json:1:2 is not a readable sandbox state file/);
    expect(r.code).toBe(2);
  });

  test('a damaged state file: the error says where (path:line:column), never the secret next to the fault', async () => {
    const dir = tempDir();
    const secret = 'sbx-secret-4f1c9a77e2';
    // a write cut short by a full disk, say: node 20's own message would quote the text around the fault
    writeFileSync(
      join(dir, 'sandbox.json'),
      `{\n  "baseUrl": "http://127.0.0.1:1",\n  "clientSecret": "${secret}" x\n}`,
      {
        mode: 0o600,
      },
    );
    const r = await spawnCli(['sandbox', 'status'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(r.stderr).toContain(
      `${join(dir, 'sandbox.json')}:3:43 is not a readable sandbox state file (not valid JSON`,
    );
    expect(r.stderr).not.toContain(secret.slice(4));
    expect(r.code).toBe(2);
  });
});
