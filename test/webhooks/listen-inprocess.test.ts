// `webhooks listen` in-process with injected IO: the pretty TTY form, Ctrl-C through io.onInterrupt,
// and a registration that fails.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { run } from '../../src/main.js';
import { testIO, type TestIO } from '../../src/io.js';
import { runCli } from '../helpers/cli.js';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { post } from './helpers.js';

let t: TestEnv;
const SECRET = 'inproc-secret-2718';

beforeAll(async () => {
  t = await startTestSandbox({ webhooks: { retryDelaysMs: [50], timeoutMs: 1_000 } });
});
afterAll(async () => t.close());

async function startListen(
  args: string[],
  opts: { tty?: boolean; env?: Record<string, string> } = {},
): Promise<{ io: TestIO; url: string; done: Promise<number> }> {
  const io = testIO({ env: opts.env ?? t.env, stdoutIsTTY: opts.tty ?? false });
  const done = run(['webhooks', 'listen', '--port', '0', ...args], io);
  const deadline = Date.now() + 5_000;
  let m: RegExpExecArray | null;
  while (!(m = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(io.err())) && Date.now() < deadline) {
    const settled = await Promise.race([done.then(() => true), new Promise((r) => setTimeout(() => r(false), 20))]);
    if (settled) break;
  }
  return { io, url: m ? m[1]! : '', done };
}

test('on a TTY each event is shown as a header line and indented JSON; control characters stay escaped', async () => {
  const { io, url, done } = await startListen(['--secret', SECRET, '--once'], { tty: true });
  const body = JSON.stringify({
    event: 'credentials:update',
    content: { id: 'c-1', status: 'UPDATED', providerName: 'evil\u001b]0;pwned\u0007', note: '\u009b30;40mhid' },
    webHook: { secret: SECRET },
  });
  expect((await post(`${url}/x`, body)).status).toBe(200);
  expect(await done).toBe(0);
  const out = io.out();
  expect(out).toMatch(
    /^--- \d{4}-\d\d-\d\dT[\d:.]+Z credentials:update\n\{\n {2}"id": "c-1",\n {2}"status": "UPDATED",/,
  );
  expect(out).not.toContain('\u001b');
  expect(out).toContain('\\u001b]0;pwned\\u0007');
  // a C1 CSI (black on black) is escaped as well: JSON.stringify leaves it as it is
  expect(out).not.toContain('\u009b');
  expect(out).toContain('\\u009b30;40mhid');
  expect(out).not.toContain(SECRET);
});

test("Ctrl-C (io.onInterrupt) removes the registration and ends with 130 (the contract's interrupted), --once with nothing received too", async () => {
  const a = await startListen(['--register', '--register-via', 'connector', '--event', 'credentials:create']);
  const listed = await raw(t.sandbox.baseUrl, 'GET', '/connector/webhooks', {
    headers: { authorization: `Token ${t.sandbox.connectorToken}` },
  });
  expect(listed.json()).toEqual([
    expect.objectContaining({ url: `${a.url}/webhooks`, events: ['credentials:create'] }),
  ]);
  a.io.interrupt();
  expect(await a.done).toBe(130);
  expect(a.io.err()).toMatch(/removed webhook/);
  expect(
    (
      await raw(t.sandbox.baseUrl, 'GET', '/connector/webhooks', {
        headers: { authorization: `Token ${t.sandbox.connectorToken}` },
      })
    ).json(),
  ).toEqual([]);

  const b = await startListen(['--register', '--once']);
  b.io.interrupt();
  expect(await b.done).toBe(130);
  expect(JSON.parse((await runCli(['webhooks', 'list', '-o', 'json'], { env: t.env })).stdout)).toEqual([]);
});

test('a registration the service refuses ends with its exit code and leaves nothing listening', async () => {
  const { io, done } = await startListen(['--register'], {
    env: { ...t.env, BANKCTL_CLIENT_SECRET: 'wrong-secret-xyz' },
  });
  expect(await done).toBe(3);
  expect(io.err()).toMatch(/^error: .*401/m);
  expect(io.err()).not.toMatch(/listening on/);
  expect(io.err()).not.toContain('wrong-secret-xyz');
});

test('when the service is gone at exit, the listener says which webhook to remove by hand', async () => {
  const sb = await startSandbox({ port: 0, authDelayMs: 5 });
  const env = {
    ...t.env,
    BANKCTL_BASE_URL: sb.baseUrl,
    BANKCTL_CLIENT_ID: sb.clientId,
    BANKCTL_CLIENT_SECRET: sb.clientSecret,
  };
  const l = await startListen(['--register'], { env });
  const id = /registered webhook ([0-9a-f]{32})/.exec(l.io.err())![1]!;
  await sb.close();
  l.io.interrupt();
  expect(await l.done).toBe(130);
  expect(l.io.err()).toContain(`could not remove webhook ${id}`);
  expect(l.io.err()).toContain(`bankctl webhooks delete ${id}`);
});

test('a second Ctrl-C while the deregistration hangs ends at once with 130', async () => {
  // a service that registers but never answers the DELETE
  const fake = createServer((req, res) => {
    if (req.method === 'POST') {
      req.resume();
      req.on('end', () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ id: 'hook-1', url: 'x', events: [] })),
      );
    }
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  const l = await startListen(['--register'], {
    env: {
      BANKCTL_CONFIG_DIR: t.configDir,
      BANKCTL_BASE_URL: base,
      BANKCTL_TOKEN: 'a-ready-token-123',
      BANKCTL_RETRIES: '0',
    },
  });
  expect(l.io.err()).toMatch(/registered webhook hook-1/);
  l.io.interrupt();
  l.io.interrupt(); // an immediate echo (conf's when-exit re-raises SIGINT) is not a second Ctrl-C
  await new Promise((r) => setTimeout(r, 400));
  expect(await Promise.race([l.done, new Promise((r) => setTimeout(() => r('still cleaning up'), 50))])).toBe(
    'still cleaning up',
  );
  l.io.interrupt();
  const started = Date.now();
  expect(await l.done).toBe(130);
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(l.io.err()).toMatch(/error: interrupted again: the webhook registration was left in place/);
  fake.closeAllConnections();
  fake.close();
});

test('--public-url is what gets registered (a tunnel in front of the listener)', async () => {
  const l = await startListen([
    '--register',
    '--public-url',
    'https://tunnel.example.com/hook',
    '--event',
    'transaction:update',
  ]);
  const hooks = JSON.parse((await runCli(['webhooks', 'list', '-o', 'json'], { env: t.env })).stdout);
  expect(hooks).toEqual([
    expect.objectContaining({ url: 'https://tunnel.example.com/hook', events: ['transaction:update'] }),
  ]);
  l.io.interrupt();
  expect(await l.done).toBe(130);
  expect(JSON.parse((await runCli(['webhooks', 'list', '-o', 'json'], { env: t.env })).stdout)).toEqual([]);
  expect(
    (await runCli(['webhooks', 'listen', '--public-url', 'https://x.example/', '--secret', SECRET], { env: t.env }))
      .code,
  ).toBe(2);
});
