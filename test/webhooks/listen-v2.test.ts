// `webhooks listen` with Events v2 deliveries, spawned as a user runs it: X-Tink-Signature checked
// over the raw body with the saved or given secret, 412 and nothing on stdout otherwise, the
// timestamp tolerance, v2 names in --event, and --register as an Events v2 endpoint.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signatureHeader } from '../../src/contract/webhook-signature.js';
import { runCli } from '../helpers/cli.js';
import { clientToken, raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { post, sleep, spawnListener } from './helpers.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => t.close());

const body = JSON.stringify({
  context: { userId: 'u1', externalUserId: 'alice' },
  content: { credentialsId: 'c1', status: 'UPDATED', credentialsStatus: 'UPDATED', finished: 1618395156625 },
  event: 'refresh:finished',
});
const signed = (secret: string, b = body, at = Date.now()) => ({
  'content-type': 'application/json',
  'x-tink-signature': signatureHeader(secret, b, at),
});

describe('Events v2 deliveries', () => {
  test('the secret saved by `endpoints create --save-secret` verifies what the sandbox sends; a refused one prints nothing', async () => {
    const c = await runCli(
      [
        'webhooks',
        'endpoints',
        'create',
        '--url',
        'http://127.0.0.1:9/later',
        '--event',
        'refresh:finished',
        '--save-secret',
        '-o',
        'json',
      ],
      { env: t.env },
    );
    expect(c.code, c.stderr).toBe(0);
    const { id, secret } = JSON.parse(c.stdout);
    const l = await spawnListener(['--event', 'refresh:finished'], t.env);
    try {
      expect(l.stderr()).not.toContain(secret);
      // refused: no header, a wrong signature, another secret, a changed body; nothing printed
      expect((await post(`${l.url}/in`, body)).status).toBe(412);
      expect((await post(`${l.url}/in`, body, { ...signed(secret), 'x-tink-signature': 't=1,v1=00' })).status).toBe(
        412,
      );
      expect((await post(`${l.url}/in`, body, signed('not-it'))).status).toBe(412);
      expect((await post(`${l.url}/in`, body.replace('UPDATED', 'UPDATEX'), signed(secret))).status).toBe(412);
      await sleep(100);
      expect(l.stdout()).toBe('');
      expect(l.stderr()).toMatch(/refused POST \/in: 412 the X-Tink-Signature header is missing/);
      expect(l.stderr()).toMatch(/412 the signature does not match/);

      // the sandbox's own delivery, signed with the endpoint's secret
      const u = await runCli(['webhooks', 'endpoints', 'update', id, '--url', `${l.url}/in`], { env: t.env });
      expect(u.code, u.stderr).toBe(0);
      const tr = await runCli(['sandbox', 'trigger', 'refresh:finished', '--status', 'TEMPORARY_ERROR'], {
        env: t.env,
      });
      expect(tr.code, tr.stderr).toBe(0);
      const [line] = await l.waitForStdoutLines(1);
      const ev = JSON.parse(line!);
      expect(ev).toMatchObject({
        event: 'refresh:finished',
        content: { status: 'TEMPORARY_ERROR', detailedError: { details: { retryable: true } } },
      });
      expect(Object.keys(ev)).toEqual(['context', 'content', 'event']);
      const ds = await runCli(['webhooks', 'deliveries', '-o', 'json'], { env: t.env });
      expect(JSON.parse(ds.stdout)).toMatchObject([{ status: 'delivered', lastStatusCode: 200 }]);
    } finally {
      l.kill();
      expect(await l.exited).toBe(130);
    }
  });

  test('--tolerance: a timestamp further than that from now is 412; within it, 200', async () => {
    const l = await spawnListener(['--secret', 'tol-secret', '--tolerance', '60'], t.env);
    try {
      expect((await post(l.url, body, signed('tol-secret', body, Date.now() - 120_000))).status).toBe(412);
      expect((await post(l.url, body, signed('tol-secret', body, Date.now() + 120_000))).status).toBe(412);
      expect(l.stdout()).toBe('');
      expect(l.stderr()).toMatch(/timestamp is too old \(tolerance 60 s\)/);
      const ok = await post(l.url, body, signed('tol-secret', body, Date.now() - 30_000));
      expect(ok.status).toBe(200);
      expect((await l.waitForStdoutLines(1))[0]).toBe(body);
    } finally {
      l.kill();
      await l.exited;
    }
  });

  test('--event filters v2 and v1 names alike; v1 deliveries still work with the same secret', async () => {
    const l = await spawnListener(
      ['--secret', 'mixed', '--event', 'account:created', '--event', 'credentials:update'],
      t.env,
    );
    try {
      expect((await post(l.url, body, signed('mixed'))).status).toBe(200); // accepted, not printed
      const acc = body.replace('refresh:finished', 'account:created');
      expect((await post(l.url, acc, signed('mixed', acc))).status).toBe(200);
      const v1 = JSON.stringify({ event: 'credentials:update', content: { id: 'c' }, webHook: { secret: 'mixed' } });
      expect((await post(l.url, v1)).status).toBe(200);
      const lines = await l.waitForStdoutLines(2);
      expect(lines.map((x) => JSON.parse(x).event)).toEqual(['account:created', 'credentials:update']);
    } finally {
      l.kill();
      await l.exited;
    }
  });

  test('--register with v2 events registers an Events v2 endpoint, uses its secret, and removes it on Ctrl-C', async () => {
    const l = await spawnListener(['--register', '--event', 'account:updated', '--once'], t.env);
    const h = { authorization: `Bearer ${await clientToken(t.sandbox, ['webhook-endpoints'])}` };
    const list = async () =>
      (await raw(t.sandbox.baseUrl, 'GET', '/events/v2/webhook-endpoints', { headers: h }))
        .json()
        .webhookEndpoints.filter((e: { url: string }) => e.url.startsWith(l.url));
    try {
      await l.waitForStderr(/registered Events v2 endpoint/);
      expect(await list()).toMatchObject([{ url: `${l.url}/webhooks`, enabledEvents: ['account:updated'] }]);
      expect((await runCli(['sandbox', 'trigger', 'account:updated'], { env: t.env })).code).toBe(0);
      expect(await l.exited).toBe(0);
      expect(JSON.parse(l.stdout())).toMatchObject({ event: 'account:updated', content: { account: {} } });
      expect(await list()).toEqual([]);
    } finally {
      l.kill();
    }
  });
});
