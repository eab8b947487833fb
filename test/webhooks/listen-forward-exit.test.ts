// `webhooks listen --forward-to URL`: a forward that failed is the run's exit code, not 0. A script
// running `listen --once --forward-to` learned of a target that was down or answered 500 only by
// reading stderr: exit 8 when the target gave no answer (refused, timed out), 9 for an answer that
// is not 2xx (a redirect included: it is not followed).
import { createServer as createNetServer } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/cli.js';
import { post, spawnListener, startReceiver, stopListener } from './helpers.js';

const SECRET = 'forward-exit-secret-1';
const env = () => ({ BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_TIMEOUT: '1' });
const body = (id: string) =>
  JSON.stringify({
    event: 'credentials:update',
    content: { id, status: 'UPDATED' },
    webHook: { secret: SECRET, url: 'http://x/', events: ['credentials:update'] },
  });

afterAll(() => cleanupTempDirs());

async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('listen --once --forward-to: the exit code says whether the forward arrived', () => {
  test('a 2xx from the target: exit 0', async () => {
    const target = await startReceiver();
    const l = await spawnListener(['--secret', SECRET, '--once', '--forward-to', `${target.url}/in`], env());
    try {
      expect((await post(l.url, body('ok-1'))).status).toBe(200);
      expect(await l.exited).toBe(0);
      expect((await target.waitFor(1))[0]!.body).toBe(body('ok-1'));
    } finally {
      await stopListener(l);
      await target.close();
    }
  });

  test('the target answers 500: exit 9 naming the status; the event is still printed', async () => {
    const target = await startReceiver();
    target.respond = (_r, res) => res.writeHead(500).end('boom');
    const l = await spawnListener(['--secret', SECRET, '--once', '--forward-to', `${target.url}/in`], env());
    try {
      expect((await post(l.url, body('five-hundred'))).status).toBe(200);
      expect(await l.exited).toBe(9);
      expect(l.events()).toEqual([expect.objectContaining({ event: 'credentials:update' })]);
      expect(l.stderr()).toMatch(/forwarded credentials:update to http:\/\/127\.0\.0\.1:\d+\/in: 500/);
      expect(l.stderr()).toMatch(/the event was not forwarded: http:\/\/127\.0\.0\.1:\d+\/in answered 500/);
      expect(l.stderr()).not.toMatch(/\n\s+at /);
    } finally {
      await stopListener(l);
      await target.close();
    }
  });

  test('a redirect is not followed and is no delivery: exit 9', async () => {
    const target = await startReceiver();
    target.respond = (_r, res) => res.writeHead(307, { location: 'http://127.0.0.1:9/else' }).end();
    const l = await spawnListener(['--secret', SECRET, '--once', '--forward-to', `${target.url}/in`], env());
    try {
      await post(l.url, body('redirected'));
      expect(await l.exited).toBe(9);
      expect(l.stderr()).toMatch(/answered 307/);
    } finally {
      await stopListener(l);
      await target.close();
    }
  });

  test('nothing listens at the target: exit 8 naming the refusal', async () => {
    const port = await closedPort();
    const l = await spawnListener(['--secret', SECRET, '--once', '--forward-to', `http://127.0.0.1:${port}/in`], env());
    try {
      await post(l.url, body('refused'));
      expect(await l.exited).toBe(8);
      expect(l.stderr()).toMatch(/failed \(ECONNREFUSED\)/);
      expect(l.stderr()).toMatch(/the event was not forwarded: http:\/\/127\.0\.0\.1:\d+\/in: ECONNREFUSED/);
    } finally {
      await stopListener(l);
    }
  });

  test('a target that never answers: exit 8 after the --timeout per-request limit', async () => {
    const target = await startReceiver();
    target.respond = () => undefined;
    const l = await spawnListener(['--secret', SECRET, '--once', '--forward-to', `${target.url}/in`], env());
    try {
      await post(l.url, body('silent'));
      expect(await l.exited).toBe(8);
      expect(l.stderr()).toMatch(/the event was not forwarded: .*: timed out/);
    } finally {
      await stopListener(l);
      await target.close();
    }
  });
});

describe('listen --forward-to --wait-timeout: a run that ends by itself counts its failed forwards', () => {
  test('one of two forwards answered 503: exit 9 with the count, after both events were printed', async () => {
    const target = await startReceiver();
    target.respond = (_r, res, n) => res.writeHead(n === 1 ? 200 : 503).end();
    const l = await spawnListener(
      ['--secret', SECRET, '--wait-timeout', '2', '--forward-to', `${target.url}/in`],
      env(),
    );
    try {
      await post(l.url, body('first'));
      await post(l.url, body('second'));
      expect(await l.exited).toBe(9);
      expect(l.events()).toHaveLength(2);
      expect(l.stderr()).toMatch(/1 of 2 forward\(s\) failed, the last: http:\/\/127\.0\.0\.1:\d+\/in answered 503/);
    } finally {
      await stopListener(l);
      await target.close();
    }
  });

  test('Ctrl-C still ends with 130 whatever the forwards did', async () => {
    const target = await startReceiver();
    target.respond = (_r, res) => res.writeHead(500).end();
    const l = await spawnListener(['--secret', SECRET, '--forward-to', `${target.url}/in`], env());
    await post(l.url, body('then-ctrl-c'));
    await l.waitForStderr(/: 500/);
    expect(await stopListener(l)).toBe(130);
    await target.close();
  });
});
