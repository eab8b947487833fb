// `sandbox start --data FILE`: state survives a restart, and a sandbox killed at any moment
// restarts from a complete snapshot.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN, spawnCli, tempDir } from '../helpers/cli.js';
import { raw } from '../helpers/sandbox.js';

/** A state file as a reader outside bankctl sees it: JSON lines, a header, records, a trailer. */
function snapshot(file: string): { format: string; records: (kind: string) => Array<[string, unknown]>; end: number } {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
  const head = lines[0] as { format: string };
  const tail = lines.at(-1) as { end: number };
  const body = lines.slice(1, -1) as Array<[string, string, unknown]>;
  return {
    format: head.format,
    records: (kind) => body.filter((r) => r[0] === kind).map((r) => [r[1], r[2]]),
    end: tail.end,
  };
}

async function start(dir: string, data: string): Promise<{ child: ChildProcess; ready: Record<string, string> }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '-o', 'json', '--data', data], {
    env: { PATH: process.env.PATH, BANKCTL_CONFIG_DIR: dir },
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (c) => reject(new Error(`sandbox exited ${c}`)));
  });
  return { child, ready: JSON.parse(line) };
}

async function token(ready: Record<string, string>) {
  const r = await raw(ready.baseUrl!, 'POST', '/api/v1/oauth/token', {
    form: {
      client_id: ready.clientId!,
      client_secret: ready.clientSecret!,
      grant_type: 'client_credentials',
      scope: 'user:create',
    },
  });
  return r.json().access_token as string;
}

describe('sandbox persistence', () => {
  // SIGHUP: the terminal of a foreground sandbox was closed, a common way to stop it
  test.each(['SIGTERM', 'SIGHUP'] as const)(
    'users, tokens and the client survive a clean restart (%s)',
    async (signal) => {
      const dir = tempDir();
      const data = join(dir, 'state.json');
      const a = await start(dir, data);
      const tok = await token(a.ready);
      const u = await raw(a.ready.baseUrl!, 'POST', '/api/v1/user/create', {
        headers: { authorization: `Bearer ${tok}` },
        json: { market: 'SE', external_user_id: 'kept' },
      });
      expect(u.status).toBe(200);
      a.child.kill(signal);
      const code = await new Promise((r) => a.child.once('exit', (c) => r(c)));
      // stopped as an interruption, its record of running removed, its last snapshot written
      expect(code).toBe(130);
      expect(existsSync(join(dir, 'sandbox.json'))).toBe(false);
      const b = await start(dir, data);
      expect(b.ready.clientId).toBe(a.ready.clientId);
      expect(b.ready.connectorToken).toBe(a.ready.connectorToken);
      // the old token still works, and the user is still there (409 on the same external id)
      const again = await raw(b.ready.baseUrl!, 'POST', '/api/v1/user/create', {
        headers: { authorization: `Bearer ${tok}` },
        json: { market: 'SE', external_user_id: 'kept' },
      });
      expect(again.status).toBe(409);
      b.child.kill('SIGTERM');
      await new Promise((r) => b.child.once('exit', r));
    },
  );

  test('SIGKILL at random moments during writes: every restart loads a complete state', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.json');
    let created = 0;
    for (let round = 0; round < 4; round++) {
      const s = await start(dir, data);
      const tok = await token(s.ready);
      if (existsSync(data)) expect(snapshot(data).format).toBe('bankctl-sandbox-state/2');
      // killed at a random moment after the first snapshot interval (250 ms) has had a chance to pass
      const killAfter = 300 + Math.floor(Math.random() * 400);
      let timer: NodeJS.Timeout | undefined;
      try {
        for (let i = 0; i < 5000; i++) {
          const r = await raw(s.ready.baseUrl!, 'POST', '/api/v1/user/create', {
            headers: { authorization: `Bearer ${tok}` },
            json: { market: 'SE', external_user_id: `u-${round}-${i}` },
          });
          if (r.status === 200) created++;
          timer ??= setTimeout(() => s.child.kill('SIGKILL'), killAfter);
        }
      } catch {
        // the sandbox died under us
      }
      clearTimeout(timer);
      await new Promise((r) => (s.child.exitCode !== null || s.child.signalCode ? r(null) : s.child.once('exit', r)));
    }
    const final = await start(dir, data);
    const state = snapshot(data);
    expect(state.format).toBe('bankctl-sandbox-state/2');
    const users = state.records('users') as Array<[string, { externalUserId: string }]>;
    expect(users.length).toBeGreaterThan(0);
    expect(users.length).toBeLessThanOrEqual(created);
    // no torn record: every user is whole
    for (const [, u] of users) expect(u.externalUserId).toMatch(/^u-\d-\d+$/);
    final.child.kill('SIGTERM');
    await new Promise((r) => final.child.once('exit', r));
  });

  test('a file that is not a sandbox state is refused and left alone', async () => {
    const dir = tempDir();
    const data = join(dir, 'state.json');
    writeFileSync(data, '{"some":"thing"}');
    const r = await spawnCli(['sandbox', 'start', '--port', '0', '--data', data], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a sandbox state file/);
    expect(readFileSync(data, 'utf8')).toBe('{"some":"thing"}');
  });
});
