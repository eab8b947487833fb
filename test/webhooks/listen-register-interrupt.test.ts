// Ctrl-C (or SIGTERM) while `webhooks listen --register` waits for the service to answer the
// registration: the listener ends at once with 130 and says the registration may have been made.
// It used to wait out the request's whole --timeout, deaf to the signal, then said "timed out", exit 8.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';
import { never, scriptedServer } from '../helpers/scripted-server.js';

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
