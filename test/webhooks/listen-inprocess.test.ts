// `webhooks listen` in-process with injected IO: the pretty TTY form, Ctrl-C through io.onInterrupt,
// and a registration that fails.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { run } from '../../src/main.js';
import { testIO, type TestIO } from '../../src/io.js';
import { runCli } from '../helpers/cli.js';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { post } from './helpers.js';

let t: TestEnv;
const SECRET = 'inproc-secret-2718';

beforeAll(async () => {
  t = await startTestSandbox({ webhooks: { retryDelaysMs: [50], timeoutMs: 1_000 } });
});
afterAll(async () => t.close());

async function startListen(args: string[], opts: { tty?: boolean; env?: Record<string, string> } = {}): Promise<{ io: TestIO; url: string; done: Promise<number> }> {
  const io = testIO({ env: opts.env ?? t.env, stdoutIsTTY: opts.tty ?? false });
  const done = run(['webhooks', 'listen', '--port', '0', ...args], io);
  const deadline = Date.now() + 5_000;
  let m: RegExpExecArray | null = null;
  while (!(m = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(io.err())) && Date.now() < deadline) {
    const settled = await Promise.race([done.then(() => true), new Promise((r) => setTimeout(() => r(false), 20))]);
    if (settled) break;
  }
  return { io, url: m ? m[1]! : '', done };
}

test('on a TTY each event is shown as a header line and indented JSON; control characters stay escaped', async () => {
  const { io, url, done } = await startListen(['--secret', SECRET, '--once'], { tty: true });
  const body = JSON.stringify({ event: 'credentials:update', content: { id: 'c-1', status: 'UPDATED', providerName: 'evil\u001b]0;pwned\u0007' }, webHook: { secret: SECRET } });
  expect((await post(`${url}/x`, body)).status).toBe(200);
  expect(await done).toBe(0);
  const out = io.out();
  expect(out).toMatch(/^--- \d{4}-\d\d-\d\dT[\d:.]+Z credentials:update\n\{\n {2}"id": "c-1",\n {2}"status": "UPDATED",/);
  expect(out).not.toContain('\u001b');
  expect(out).toContain('\\u001b]0;pwned\\u0007');
  expect(out).not.toContain(SECRET);
});

test('Ctrl-C (io.onInterrupt) removes the registration and ends with 0; with --once and nothing received it is 130', async () => {
  const a = await startListen(['--register', '--register-via', 'connector', '--event', 'credentials:create']);
  const listed = await raw(t.sandbox.baseUrl, 'GET', '/connector/webhooks', { headers: { authorization: `Token ${t.sandbox.connectorToken}` } });
  expect(listed.json()).toEqual([expect.objectContaining({ url: `${a.url}/webhooks`, events: ['credentials:create'] })]);
  a.io.interrupt();
  expect(await a.done).toBe(0);
  expect(a.io.err()).toMatch(/removed webhook/);
  expect((await raw(t.sandbox.baseUrl, 'GET', '/connector/webhooks', { headers: { authorization: `Token ${t.sandbox.connectorToken}` } })).json()).toEqual([]);

  const b = await startListen(['--register', '--once']);
  b.io.interrupt();
  expect(await b.done).toBe(130);
  expect(JSON.parse((await runCli(['webhooks', 'list', '-o', 'json'], { env: t.env })).stdout)).toEqual([]);
});

test('a registration the service refuses ends with its exit code and leaves nothing listening', async () => {
  const { io, done } = await startListen(['--register'], { env: { ...t.env, BANKCTL_CLIENT_SECRET: 'wrong-secret-xyz' } });
  expect(await done).toBe(3);
  expect(io.err()).toMatch(/^error: .*401/m);
  expect(io.err()).not.toMatch(/listening on/);
  expect(io.err()).not.toContain('wrong-secret-xyz');
});
