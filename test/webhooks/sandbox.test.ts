// The sandbox's webhook registration (both sides) and delivery engine, at the wire.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { clientToken, raw, startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { sleep, startReceiver, type Receiver } from './helpers.js';
import { addAccount } from '../helpers/store-fixtures.js';

let t: TestEnv;
let rx: Receiver;
let conn: Record<string, string>;

beforeAll(async () => {
  t = await startTestSandbox({ webhooks: { retryDelaysMs: [30, 60], maxAttempts: 4, timeoutMs: 400 } });
  conn = { authorization: `Token ${t.sandbox.connectorToken}` };
});
afterAll(async () => t.close());
afterEach(async () => {
  await rx?.close();
  t.sandbox.reset();
});

async function registerConnector(url: string, events: string[], secret = 'sh-secret-1') {
  const r = await raw(t.sandbox.baseUrl, 'POST', '/connector/webhooks', {
    headers: conn,
    json: { url, secret, events },
  });
  expect(r.status).toBe(204);
  return r.headers.get('location')!.split('/').pop()!;
}

const trigger = (body: Record<string, unknown>) =>
  raw(t.sandbox.baseUrl, 'POST', '/sandbox/trigger', { headers: conn, json: body });

describe('connector registration', () => {
  test('POST answers 204 with the new id in Location, GET lists it, DELETE removes it, a second DELETE is 404', async () => {
    const id = await registerConnector('https://hooks.example.com/in', ['credentials:create', 'transaction:create']);
    const list = await raw(t.sandbox.baseUrl, 'GET', '/connector/webhooks', { headers: conn });
    expect(list.status).toBe(200);
    expect(list.json()).toEqual([
      {
        id,
        url: 'https://hooks.example.com/in',
        secret: 'sh-secret-1',
        events: ['credentials:create', 'transaction:create'],
      },
    ]);
    expect((await raw(t.sandbox.baseUrl, 'DELETE', `/connector/webhooks/${id}`, { headers: conn })).status).toBe(204);
    expect((await raw(t.sandbox.baseUrl, 'DELETE', `/connector/webhooks/${id}`, { headers: conn })).status).toBe(404);
    expect((await raw(t.sandbox.baseUrl, 'GET', '/connector/webhooks', { headers: conn })).json()).toEqual([]);
  });

  test.each([
    ['http://hooks.example.com/in', /https/],
    ['ftp://127.0.0.1/in', /https/],
    ['not a url', /not a valid URL/],
    ['', /url is required/],
    ['https://user:pw@hooks.example.com/', /credentials/],
  ])('url %j is refused with 400', async (url, message) => {
    const r = await raw(t.sandbox.baseUrl, 'POST', '/connector/webhooks', {
      headers: conn,
      json: { url, secret: 's', events: ['credentials:create'] },
    });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(message);
  });

  test.each(['http://127.0.0.1:9/x', 'http://127.9.8.7:9/x', 'http://localhost:9/x', 'http://[::1]:9/x'])(
    'plain http to loopback %s is allowed',
    async (url) => {
      await registerConnector(url, ['credentials:create']);
    },
  );

  test('unknown events, no events, no secret and a non-object body are 400; no token is 401', async () => {
    const post = (json: unknown, headers = conn) =>
      raw(t.sandbox.baseUrl, 'POST', '/connector/webhooks', { headers, json });
    expect((await post({ url: 'https://a.example/', secret: 's', events: ['credentials:explode'] })).status).toBe(400);
    expect((await post({ url: 'https://a.example/', secret: 's', events: [] })).status).toBe(400);
    expect((await post({ url: 'https://a.example/', events: ['credentials:create'] })).status).toBe(400);
    expect((await post(['x'])).status).toBe(400);
    expect((await post({ url: 'https://a.example/', secret: 's', events: ['credentials:create'] }, {})).status).toBe(
      401,
    );
    expect((await raw(t.sandbox.baseUrl, 'DELETE', '/connector/webhooks/nope', { headers: conn })).status).toBe(404);
  });

  test('hostile bodies: not JSON 400, another content type 415, too large 413, an overlong secret or url 400', async () => {
    const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
      raw(t.sandbox.baseUrl, 'POST', '/connector/webhooks', { headers: { ...conn, ...headers }, body });
    expect((await post('{"url": ')).status).toBe(400);
    expect((await post('url=x', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect(
      (
        await post(
          JSON.stringify({
            url: 'https://a.example/',
            secret: 'x'.repeat(2 * 1024 * 1024),
            events: ['credentials:create'],
          }),
        )
      ).status,
    ).toBe(413);
    expect(
      (
        await post(
          JSON.stringify({ url: 'https://a.example/', secret: 'x'.repeat(2000), events: ['credentials:create'] }),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await post(
          JSON.stringify({ url: `https://a.example/${'p'.repeat(3000)}`, secret: 's', events: ['credentials:create'] }),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await raw(t.sandbox.baseUrl, 'POST', '/sandbox/trigger', {
          headers: { ...conn, 'content-type': 'application/json' },
          body: 'nope',
        })
      ).status,
    ).toBe(400);
    expect((await raw(t.sandbox.baseUrl, 'GET', '/connector/webhooks', { headers: conn })).json()).toEqual([]);
  });
});

describe('API-side registration (/api/v1/hooks, scope user:web_hooks)', () => {
  test('a client token registers for every user; a user token for that user only, and sees only its own', async () => {
    rx = await startReceiver();
    const ct = await clientToken(t.sandbox, ['user:web_hooks']);
    const alice = await userWithToken(t.sandbox, ['user:web_hooks']);
    const bob = await userWithToken(t.sandbox, ['user:web_hooks']);
    const g = await raw(t.sandbox.baseUrl, 'POST', '/api/v1/hooks', {
      headers: { authorization: `Bearer ${ct}` },
      json: { url: `${rx.url}/global`, secret: 'g-secret', events: ['signable-operation:update'] },
    });
    expect(g.status).toBe(200);
    expect(g.json()).toMatchObject({ url: `${rx.url}/global`, events: ['signable-operation:update'], global: true });
    const a = await raw(t.sandbox.baseUrl, 'POST', '/api/v1/hooks', {
      headers: { authorization: `Bearer ${alice.token}` },
      json: { url: `${rx.url}/alice`, secret: 'a-secret', events: ['signable-operation:update'] },
    });
    expect(a.status).toBe(200);
    expect(a.json()).toMatchObject({ userId: alice.userId, global: false });
    const aliceList = await raw(t.sandbox.baseUrl, 'GET', '/api/v1/hooks', {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(aliceList.json().webHooks.map((h: any) => h.id)).toEqual([a.json().id]);
    expect(
      (
        await raw(t.sandbox.baseUrl, 'GET', '/api/v1/hooks', { headers: { authorization: `Bearer ${bob.token}` } })
      ).json().webHooks,
    ).toEqual([]);
    // bob cannot delete alice's
    expect(
      (
        await raw(t.sandbox.baseUrl, 'DELETE', `/api/v1/hooks/${a.json().id}`, {
          headers: { authorization: `Bearer ${bob.token}` },
        })
      ).status,
    ).toBe(404);

    await trigger({ event: 'signable-operation:update', userId: bob.userId });
    await trigger({ event: 'signable-operation:update', userId: alice.userId });
    const got = await rx.waitFor(3);
    await sleep(50);
    expect(rx.received).toHaveLength(3);
    expect(got.filter((r) => r.path === '/alice').map((r) => r.json().content.userId)).toEqual([alice.userId]);
    expect(
      got
        .filter((r) => r.path === '/global')
        .map((r) => r.json().content.userId)
        .sort(),
    ).toEqual([alice.userId, bob.userId].sort());
    // the Swagger's path serves the same registrations
    expect(
      (
        await raw(t.sandbox.baseUrl, 'GET', '/api/v1/authorization/hooks', {
          headers: { authorization: `Bearer ${ct}` },
        })
      )
        .json()
        .webHooks.map((h: any) => h.id),
    ).toContain(g.json().id);
  });

  test('a token without user:web_hooks is 403; a connector token is refused', async () => {
    const ct = await clientToken(t.sandbox, ['user:create']);
    expect(
      (await raw(t.sandbox.baseUrl, 'GET', '/api/v1/hooks', { headers: { authorization: `Bearer ${ct}` } })).status,
    ).toBe(403);
    expect((await raw(t.sandbox.baseUrl, 'GET', '/api/v1/hooks', { headers: conn })).status).toBe(403);
  });
});

describe('delivery', () => {
  test('a WebHookRequest {event, content, webhook, webHook} is POSTed for registered events only', async () => {
    rx = await startReceiver();
    await registerConnector(`${rx.url}/hook?x=1`, ['credentials:update']);
    await trigger({ event: 'credentials:create' });
    const r = await trigger({ event: 'credentials:update', status: 'AUTHENTICATING' });
    expect(r.status).toBe(200);
    expect(r.json().webhooks).toBe(1);
    const [got] = await rx.waitFor(1);
    await sleep(50);
    expect(rx.received).toHaveLength(1);
    expect(got!.method).toBe('POST');
    expect(got!.path).toBe('/hook?x=1');
    expect(got!.headers['content-type']).toBe('application/json');
    const body = got!.json();
    expect(body.event).toBe('credentials:update');
    // spec 6's webHook, and the registration as the vendor's guides show it (a connector one is global)
    expect(body.webHook).toEqual({ secret: 'sh-secret-1', url: `${rx.url}/hook?x=1`, events: ['credentials:update'] });
    expect(body.webhook).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      secret: 'sh-secret-1',
      url: `${rx.url}/hook?x=1`,
      global: true,
      events: ['credentials:update'],
    });
    expect(body.content).toMatchObject({ id: r.json().orderKey, status: 'AUTHENTICATING', userId: r.json().userId });
    expect(typeof body.content.statusUpdated).toBe('number');
  });

  test('a registration concerns users created after it', async () => {
    rx = await startReceiver();
    await registerConnector(rx.url, ['transaction:create']);
    const later = await userWithToken(t.sandbox, ['user:read']);
    await trigger({ event: 'transaction:create', userId: later.userId });
    const [got] = await rx.waitFor(1);
    expect(got!.json().content.userId).toBe(later.userId);
    expect(got!.json().content.amount).toEqual({ currencyCode: 'SEK', value: { scale: '2', unscaledValue: '-12550' } });
  });

  test('a failing receiver (500, then a dropped connection) gets the same event again until it answers 2xx', async () => {
    rx = await startReceiver();
    rx.respond = (_r, res, n) => {
      if (n === 1) res.writeHead(500).end('down');
      else if (n === 2) res.socket?.destroy();
      else res.writeHead(204).end();
    };
    await registerConnector(rx.url, ['signable-operation:update']);
    await trigger({ event: 'signable-operation:update', status: 'EXECUTED' });
    const got = await rx.waitFor(3);
    await sleep(150);
    expect(rx.received).toHaveLength(3);
    expect(new Set(got.map((g) => g.body)).size).toBe(1);
    expect(got[0]!.json().content).toMatchObject({ status: 'EXECUTED', type: 'TRANSFER' });
  });

  test('events of one key arrive in order even when the first needs retries; other keys are not held up', async () => {
    rx = await startReceiver();
    let failedFirst = 0;
    rx.respond = (r, res) => {
      const body = r.json();
      if (body.content.status === 'AUTHENTICATING' && failedFirst < 2) {
        failedFirst++;
        res.writeHead(503).end();
      } else res.writeHead(200).end();
    };
    await registerConnector(rx.url, ['credentials:update']);
    // two credentials of the newest user (the trigger refuses ids the user has no credentials of)
    const { userId } = await userWithToken(t.sandbox, ['accounts:read']);
    addAccount(t.sandbox.store, userId, {}, 'cred-a');
    addAccount(t.sandbox.store, userId, {}, 'cred-b');
    for (const status of ['AUTHENTICATING', 'UPDATING', 'UPDATED'])
      await trigger({ event: 'credentials:update', status, credentialsId: 'cred-a' });
    await trigger({ event: 'credentials:update', status: 'TEMPORARY_ERROR', credentialsId: 'cred-b' });
    await rx.waitFor(6);
    const seq = rx.received.map((r) => `${r.json().content.id}:${r.json().content.status}`);
    expect(seq.filter((s) => s.startsWith('cred-a'))).toEqual([
      'cred-a:AUTHENTICATING',
      'cred-a:AUTHENTICATING',
      'cred-a:AUTHENTICATING',
      'cred-a:UPDATING',
      'cred-a:UPDATED',
    ]);
    // cred-b did not wait for cred-a's retries
    expect(seq.indexOf('cred-b:TEMPORARY_ERROR')).toBeLessThan(seq.lastIndexOf('cred-a:AUTHENTICATING'));
  });

  test('redirects are never followed: a 302 counts as a failure and the target never sees the event', async () => {
    rx = await startReceiver();
    const target = await startReceiver();
    rx.respond = (_r, res) => res.writeHead(302, { location: `${target.url}/stolen` }).end();
    await registerConnector(rx.url, ['credentials:create']);
    await trigger({ event: 'credentials:create' });
    await rx.waitFor(4); // maxAttempts
    await sleep(150);
    expect(rx.received).toHaveLength(4);
    expect(target.received).toHaveLength(0);
    await target.close();
  });

  test('a receiver that never answers times out and is retried; a huge answer is not read to the end', async () => {
    rx = await startReceiver();
    rx.respond = (_r, res, n) => {
      if (n === 1) return; // never answers: the 400 ms timeout
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(Buffer.alloc(256 * 1024, 'x'));
      // and never ends the body
    };
    await registerConnector(rx.url, ['transaction:update']);
    await trigger({ event: 'transaction:update' });
    await rx.waitFor(2, 3_000);
    await expect
      .poll(
        async () =>
          (await raw(t.sandbox.baseUrl, 'GET', '/sandbox/webhooks/deliveries', { headers: conn })).json().attempts
            .length,
        { timeout: 2_000 },
      )
      .toBeGreaterThanOrEqual(2);
    const final = (await raw(t.sandbox.baseUrl, 'GET', '/sandbox/webhooks/deliveries', { headers: conn })).json()
      .attempts;
    expect(final[0]).toMatchObject({ attempt: 1, delivered: false });
    expect(final[1]).toMatchObject({ attempt: 2, delivered: true, outcome: 200 });
    // the 256 KiB answer that never ends was dropped after 16 KiB, not waited on until the 400 ms timeout
    expect(final[1].at - final[0].at).toBeLessThan(300);
  });

  test('a deleted registration receives nothing more', async () => {
    rx = await startReceiver();
    const id = await registerConnector(rx.url, ['credentials:create']);
    await raw(t.sandbox.baseUrl, 'DELETE', `/connector/webhooks/${id}`, { headers: conn });
    const r = await trigger({ event: 'credentials:create' });
    expect(r.json().webhooks).toBe(0);
    await sleep(100);
    expect(rx.received).toHaveLength(0);
  });

  test('trigger validates its input: unknown event 400, unknown user 404, bad status 400', async () => {
    expect((await trigger({ event: 'nope' })).status).toBe(400);
    expect((await trigger({ event: 'credentials:create', userId: 'ghost' })).status).toBe(404);
    expect((await trigger({ event: 'credentials:update', status: 'HAPPY' })).status).toBe(400);
  });
});
