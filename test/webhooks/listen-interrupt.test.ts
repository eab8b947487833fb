// Ctrl-C (or SIGTERM) while `webhooks listen` waits on a request of its own ends it at once with 130:
// the registration (`--register`; it said "timed out", exit 8, after the whole --timeout) and a
// forward to a target that does not answer (`--forward-to`; it held the listener for the --timeout).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';
import { never, scriptedServer } from '../helpers/scripted-server.js';
import { post, spawnListener } from './helpers.js';

let server: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  // a service that takes every request and never answers
  server = await scriptedServer(() => never);
});
afterAll(async () => {
  await server.close();
});

async function interruptedWhileRegistering(
  args: string[],
  signal: NodeJS.Signals,
  path: string,
): Promise<{ code: number | null; stderr: string; ms: number }> {
  const seenBefore = server.seen.length;
  const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--port', '0', '--register', ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      BANKCTL_CONFIG_DIR: tempDir(),
      BANKCTL_BASE_URL: server.url,
      BANKCTL_TOKEN: 'ready-token',
      BANKCTL_CONNECTOR_TOKEN: 'connector-token',
      BANKCTL_RETRIES: '0',
      // far longer than the test waits: only the signal can end the request in time
      BANKCTL_TIMEOUT: '60',
    } as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const t0 = Date.now();
  while (!server.seen.slice(seenBefore).some((s) => s.method === 'POST' && s.url === path)) {
    if (Date.now() - t0 > 10_000) throw new Error(`no POST ${path} came; stderr: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const sent = Date.now();
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const code = await closed;
  clearTimeout(timer);
  return { code, stderr, ms: Date.now() - sent };
}

test.each([
  [[] as string[], 'SIGINT', '/api/v1/hooks', 'bankctl webhooks list'],
  [['--event', 'refresh:finished'], 'SIGTERM', '/events/v2/webhook-endpoints', 'bankctl webhooks endpoints list'],
  [['--register-via', 'connector'], 'SIGINT', '/connector/webhooks', 'bankctl connector webhooks list'],
] as const)(
  'listen --register %j: %s while the registration is unanswered ends it at once with 130',
  async (args, signal, path, list) => {
    const r = await interruptedWhileRegistering([...args], signal, path);
    expect(r.code).toBe(130);
    expect(r.ms).toBeLessThan(5_000);
    expect(r.stderr).toMatch(/interrupted while registering the listener/);
    expect(r.stderr).toContain(list);
    expect(r.stderr).not.toMatch(/timed out/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  },
  30_000,
);

test('Ctrl-C while a forward waits for a target that does not answer: 130 at once, the forwards said not done', async () => {
  const target = await scriptedServer(() => never);
  try {
    const l = await spawnListener(['--secret', 'the-secret', '--forward-to', `${target.url}/hooks`, '-o', 'json'], {
      BANKCTL_CONFIG_DIR: tempDir(),
      BANKCTL_TIMEOUT: '60',
    });
    const body = (id: string) =>
      JSON.stringify({ event: 'credentials:update', content: { id }, webhook: { secret: 'the-secret' } });
    expect((await post(l.url, body('a'))).status).toBe(200);
    expect((await post(l.url, body('b'))).status).toBe(200);
    const t0 = Date.now();
    while (target.seen.length === 0 && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50));
    expect(target.seen).toHaveLength(1);
    const sent = Date.now();
    l.kill('SIGINT');
    const timer = setTimeout(() => l.kill('SIGKILL'), 15_000);
    const code = await l.exited;
    clearTimeout(timer);
    expect(code).toBe(130);
    expect(Date.now() - sent).toBeLessThan(5_000);
    expect(l.stderr()).toContain(`forwarded credentials:update to ${target.url}/hooks: failed (interrupted)`);
    expect(l.stderr()).toContain(`did not forward credentials:update to ${target.url}/hooks: interrupted`);
    expect(l.stderr()).toMatch(/stopped listening after 2 event\(s\)/);
    expect(l.stdout().trim().split('\n')).toHaveLength(2);
  } finally {
    await target.close();
  }
}, 30_000);
