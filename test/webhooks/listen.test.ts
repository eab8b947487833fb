// `bankctl webhooks listen` as a real process, fed by the sandbox's delivery engine and by hand.
import { createServer as createNetServer, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { raw, startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { addAccount } from '../helpers/store-fixtures.js';
import { post, sleep, spawnListener, startReceiver, stopListener as stop } from './helpers.js';

let t: TestEnv;
let conn: Record<string, string>;
const SECRET = 'listen-secret-4711';

beforeAll(async () => {
  // short retry waits so that a failed delivery comes again quickly
  t = await startTestSandbox({ webhooks: { retryDelaysMs: [200], maxAttempts: 50, timeoutMs: 1_000 } });
  conn = { authorization: `Token ${t.sandbox.connectorToken}` };
});
afterAll(async () => t.close());

const hookBody = (event: string, content: unknown = { id: 'c1', status: 'UPDATED' }, secret = SECRET) =>
  JSON.stringify({ event, content, webHook: { secret, url: 'http://x/', events: [event] } });

async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('delivery from the sandbox to a spawned listener', () => {
  test('--register subscribes to all five events; each kind arrives as one JSON line; SIGINT removes the registration', async () => {
    const l = await spawnListener(['--register'], t.env);
    try {
      expect(l.stderr()).toMatch(/registered webhook [0-9a-f]{32} \(API, all users\)/);
      const hooks = await runCli(['webhooks', 'list', '-o', 'json'], { env: t.env });
      expect(hooks.code).toBe(0);
      const listed = JSON.parse(hooks.stdout);
      expect(listed).toHaveLength(1);
      expect(listed[0].url).toBe(`${l.url}/webhooks`);

      // one through the real binary, the rest in-process
      const first = await spawnCli(['sandbox', 'trigger', 'credentials:create', '-o', 'json'], { env: t.env });
      expect(first.code).toBe(0);
      expect(first.stderr).toMatch(/queued for 1 webhook/);
      const emitted = [JSON.parse(first.stdout)];
      for (const e of ['credentials:update', 'transaction:create', 'transaction:update', 'signable-operation:update']) {
        const r = await runCli(['sandbox', 'trigger', e, '-o', 'json'], { env: t.env });
        expect(r.code).toBe(0);
        emitted.push(JSON.parse(r.stdout));
      }
      await l.waitForStdoutLines(5);
      const got = l.events();
      expect(got.map((g) => g.event).sort()).toEqual(emitted.map((e) => e.event).sort());
      for (const e of emitted) expect(got.find((g) => g.event === e.event).content).toEqual(e.content);
      expect(got.find((g) => g.event === 'signable-operation:update').content).toMatchObject({
        type: 'TRANSFER',
        status: 'EXECUTED',
      });
      // the secret the listener generated never reaches stdout or stderr
      const secret = t.sandbox.context.store.area('webhooks', () => ({ hooks: new Map() })) as {
        hooks: Map<string, { secret: string }>;
      };
      const generated = [...secret.hooks.values()][0]!.secret;
      expect(generated.length).toBeGreaterThan(20);
      expect(l.stdout() + l.stderr()).not.toContain(generated);
      expect(got[0].webHook).toEqual({ url: `${l.url}/webhooks`, events: expect.any(Array) });
      expect(got[0].webhook).toMatchObject({ url: `${l.url}/webhooks`, global: true });
      expect(got[0].webhook).not.toHaveProperty('secret');
    } finally {
      expect(await stop(l)).toBe(130);
    }
    expect(l.stderr()).toMatch(/removed webhook [0-9a-f]{32}/);
    expect(JSON.parse((await runCli(['webhooks', 'list', '-o', 'json'], { env: t.env })).stdout)).toEqual([]);
  });

  test('a real connector push delivers transaction:create', async () => {
    const l = await spawnListener(
      ['--register', '--register-via', 'connector', '--event', 'transaction:create'],
      t.env,
    );
    try {
      const u = await raw(t.sandbox.baseUrl, 'POST', '/connector/users', {
        headers: conn,
        json: { externalId: 'wh-alice', token: 'alice-token-123', market: 'SE', locale: 'sv_SE' },
      });
      expect(u.status).toBe(204);
      const a = await raw(t.sandbox.baseUrl, 'POST', '/connector/users/wh-alice/accounts', {
        headers: conn,
        json: {
          accounts: [{ externalId: 'acc-1', name: 'Checking', number: '1234', balance: 100.5, type: 'CHECKING' }],
        },
      });
      expect(a.status).toBe(204);
      const tx = await raw(t.sandbox.baseUrl, 'POST', '/connector/users/wh-alice/transactions', {
        headers: conn,
        json: {
          type: 'REAL_TIME',
          transactionAccounts: [
            {
              externalId: 'acc-1',
              balance: 88.25,
              transactions: [
                {
                  externalId: 'tx-1',
                  amount: -12.25,
                  date: Date.UTC(2026, 10, 1),
                  description: 'Coffee',
                  type: 'DEFAULT',
                },
              ],
            },
          ],
        },
      });
      expect(tx.status).toBe(204);
      const [line] = await l.waitForStdoutLines(1);
      const got = JSON.parse(line!);
      expect(got.event).toBe('transaction:create');
      expect(got.content.amount).toEqual({
        currencyCode: expect.any(String),
        value: { scale: '2', unscaledValue: '-1225' },
      });
      expect(got.content.descriptions.display).toBe('Coffee');
    } finally {
      expect(await stop(l)).toBe(130);
    }
    expect((await raw(t.sandbox.baseUrl, 'GET', '/connector/webhooks', { headers: conn })).json()).toEqual([]);
  });

  test('creating real credentials delivers credentials:create, then each status change as credentials:update, in order', async () => {
    const l = await spawnListener(
      ['--register', '--event', 'credentials:create', '--event', 'credentials:update'],
      t.env,
    );
    try {
      const u = await userWithToken(t.sandbox, ['credentials:write']);
      const c = await raw(t.sandbox.baseUrl, 'POST', '/api/v1/credentials', {
        headers: { authorization: `Bearer ${u.token}` },
        json: { providerName: 'se-test-other-password', fields: { username: 'test-user', password: 'test-password' } },
      });
      expect(c.status).toBe(200);
      const id = c.json().id;
      let got: any[] = [];
      await expect
        .poll(() => (got = l.stdout() ? l.events() : []).some((e) => e.content.status === 'UPDATED'), {
          timeout: 8_000,
        })
        .toBe(true);
      const mine = got.filter((e) => e.content.id === id);
      expect(mine[0]).toMatchObject({
        event: 'credentials:create',
        content: { id, userId: u.userId, providerName: 'se-test-other-password' },
      });
      expect(mine.slice(1).every((e) => e.event === 'credentials:update')).toBe(true);
      expect(mine.length).toBeGreaterThanOrEqual(3);
      expect(mine.at(-1).content.status).toBe('UPDATED');
      const stamps = mine.slice(1).map((e) => e.content.statusUpdated);
      expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
      expect(new Set(stamps).size).toBe(stamps.length);
    } finally {
      expect(await stop(l)).toBe(130);
    }
  });

  test('a real transfer delivers signable-operation:update for CREATED, EXECUTING and EXECUTED', async () => {
    const l = await spawnListener(['--register', '--event', 'signable-operation:update'], t.env);
    try {
      await raw(t.sandbox.baseUrl, 'POST', '/connector/users', {
        headers: conn,
        json: { externalId: 'wh-bob', token: 'bob-token-456', market: 'SE' },
      });
      await raw(t.sandbox.baseUrl, 'POST', '/connector/users/wh-bob/accounts', {
        headers: conn,
        json: {
          accounts: [{ externalId: 'bob-1', name: 'Checking', number: '5555', balance: 1000, type: 'CHECKING' }],
        },
      });
      const basic = { authorization: `Basic ${Buffer.from('wh-bob:bob-token-456').toString('base64')}` };
      const accounts = await raw(t.sandbox.baseUrl, 'GET', '/api/v1/accounts/list', { headers: basic });
      expect(accounts.status).toBe(200);
      const account = accounts.json().accounts[0];
      const tr = await raw(t.sandbox.baseUrl, 'POST', '/api/v1/transfer', {
        headers: basic,
        json: {
          sourceUri: `platform://${account.id}`,
          destinationUri: 'se://80001234567',
          amount: '12.50',
          currency: account.currencyCode ?? 'SEK',
          destinationMessage: 'rent',
        },
      });
      expect(tr.status).toBe(200);
      await l.waitForStdoutLines(3);
      const got = l.events();
      expect(got.map((e) => e.content.status)).toEqual(['CREATED', 'EXECUTING', 'EXECUTED']);
      expect(
        got.every(
          (e) =>
            e.event === 'signable-operation:update' && e.content.type === 'TRANSFER' && e.content.id === tr.json().id,
        ),
      ).toBe(true);
    } finally {
      expect(await stop(l)).toBe(130);
    }
  });

  test('a delivery that failed (no one listening yet) is retried, and events of one credentials arrive in order', async () => {
    const port = await freePort();
    const reg = await raw(t.sandbox.baseUrl, 'POST', '/connector/webhooks', {
      headers: conn,
      json: { url: `http://127.0.0.1:${port}/late`, secret: SECRET, events: ['credentials:update'] },
    });
    expect(reg.status).toBe(204);
    const id = reg.headers.get('location')!.split('/').pop()!;
    // credentials of the newest user (the trigger refuses ids the user has no credentials of)
    const { userId } = await userWithToken(t.sandbox, ['accounts:read']);
    addAccount(t.sandbox.store, userId, {}, 'cred-order');
    try {
      for (const status of ['AUTHENTICATING', 'AWAITING_SUPPLEMENTAL_INFORMATION', 'UPDATING', 'UPDATED']) {
        const r = await runCli(
          ['sandbox', 'trigger', 'credentials:update', '--status', status, '--credentials-id', 'cred-order'],
          { env: t.env },
        );
        expect(r.code).toBe(0);
      }
      await sleep(500); // a few refused attempts
      const failed = (await raw(t.sandbox.baseUrl, 'GET', '/sandbox/webhooks/deliveries', { headers: conn }))
        .json()
        .attempts.filter((d: any) => d.hookId === id);
      expect(failed.length).toBeGreaterThanOrEqual(1);
      expect(failed.every((d: any) => !d.delivered && d.outcome === 'ECONNREFUSED')).toBe(true);

      const l = await spawnListener(['--port', String(port), '--secret', SECRET], t.env);
      try {
        await l.waitForStdoutLines(4, 8_000);
        expect(l.events().map((e) => e.content.status)).toEqual([
          'AUTHENTICATING',
          'AWAITING_SUPPLEMENTAL_INFORMATION',
          'UPDATING',
          'UPDATED',
        ]);
        expect(l.events().every((e) => e.content.id === 'cred-order')).toBe(true);
      } finally {
        await stop(l);
      }
    } finally {
      await raw(t.sandbox.baseUrl, 'DELETE', `/connector/webhooks/${id}`, { headers: conn });
    }
  });
});

describe('what the listener refuses, and keeps running through', () => {
  test('wrong secret 401, garbage 400, oversized 413, GET 405, slow sender 408: none printed; then a good one is', async () => {
    const l = await spawnListener(['--secret', SECRET, '--max-body', '4096', '--read-timeout', '1'], t.env);
    try {
      const wrong = await post(`${l.url}/any/path`, hookBody('credentials:create', { id: 'x' }, 'not-the-secret-999'));
      expect(wrong.status).toBe(401);
      expect((await post(l.url, 'GARBAGE{{not json')).status).toBe(400);
      expect((await post(l.url, '[1,2,3]')).status).toBe(400);
      expect((await post(l.url, JSON.stringify({ event: 'credentials:create', content: {} }))).status).toBe(400); // no webHook
      expect((await post(l.url, Buffer.from([0xff, 0xfe, 0x7b]))).status).toBe(400); // not UTF-8
      expect((await post(l.url, hookBody('credentials:create', { pad: 'x'.repeat(10_000) }))).status).toBe(413);
      expect((await fetch(l.url)).status).toBe(405);

      // a slow sender: headers, part of the body, then nothing
      const started = Date.now();
      const answer = await new Promise<string>((resolve) => {
        const s = connect(l.port, '127.0.0.1', () =>
          s.write(
            `POST /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"event":`,
          ),
        );
        let got = '';
        s.on('data', (c) => (got += c));
        s.on('close', () => resolve(got));
        s.on('error', () => resolve(got));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(Date.now() - started).toBeLessThan(4_000);
      // and one that trickles its headers
      const trickle = await new Promise<string>((resolve) => {
        const s = connect(l.port, '127.0.0.1', () => s.write('POST /slow HTTP/1.1\r\nHost: x\r\n'));
        const iv = setInterval(() => s.writable && s.write('X-Drip: 1\r\n'), 200);
        let got = '';
        s.on('data', (c) => (got += c));
        s.on('close', () => {
          clearInterval(iv);
          resolve(got);
        });
        s.on('error', () => undefined);
      });
      expect(trickle).toMatch(/^HTTP\/1\.1 408/);

      const ok = await post(`${l.url}/hooks`, hookBody('credentials:update', { id: 'good-1', status: 'UPDATED' }));
      expect(ok.status).toBe(200);
      const lines = await l.waitForStdoutLines(1);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toEqual({
        event: 'credentials:update',
        content: { id: 'good-1', status: 'UPDATED' },
        webHook: { url: 'http://x/', events: ['credentials:update'] },
      });
      // the refusals are one line each on stderr, without the bodies or the secrets
      expect(l.stderr()).toMatch(/refused POST \/any\/path: 401 wrong secret/);
      expect(l.stderr()).toMatch(/413/);
      expect(l.stderr()).not.toMatch(/GARBAGE|not-the-secret-999|listen-secret-4711/);
      expect(l.stdout()).not.toContain(SECRET);
    } finally {
      expect(await stop(l)).toBe(130);
    }
  });

  test("the vendor's v1 refresh:finished body (the registration under `webhook`) is accepted, printed without its secret", async () => {
    // docs.tink.com's "Event: Refresh finished" example, verbatim but for the url
    const secret = '67abc1e08fb64c92b450a13e0876330b';
    const webhook = {
      id: '371aac6d3fc0423bb17e3c96a1d279b6',
      userId: 'af947e794c0641079a876dcec51a419a',
      secret,
      url: 'https://example.com/hook',
      clientId: '1b91a64414fb4ecf87bb4ce7654b2b6a',
      global: false,
      events: ['credentials:create', 'credentials:update', 'refresh:finished'],
    };
    const content = {
      externalUserId: '100058962',
      credentialsId: 'abe129ab439c4b9dbb71499a256ce4a5',
      status: 'AUTHENTICATION_ERROR',
      credentialsStatus: 'AUTHENTICATION_ERROR',
      finished: 1619007274295,
      source: 'OPERATION_SOURCE_API',
      sessionExpiryDate: 1624954710576,
      detailedError: {
        type: 'USER_LOGIN_ERROR',
        displayMessage: '',
        details: { reason: 'STATIC_CREDENTIALS_INCORRECT', retryable: false },
      },
    };
    const l = await spawnListener(['--secret', secret, '--once'], t.env);
    try {
      const wrong = await post(l.url, JSON.stringify({ content, event: 'refresh:finished', webhook: { secret: 'x' } }));
      expect(wrong.status).toBe(401);
      const ok = await post(l.url, JSON.stringify({ content, event: 'refresh:finished', webhook }));
      expect(ok.status).toBe(200);
      expect(await l.exited).toBe(0);
      const { secret: _s, ...shown } = webhook;
      expect(JSON.parse(l.stdout())).toEqual({ content, event: 'refresh:finished', webhook: shown });
      expect(l.stdout() + l.stderr()).not.toContain(secret);
    } finally {
      if (l.child.exitCode === null) l.kill('SIGINT');
    }
  });

  test('--event filters what is printed; --once exits 0 after the first match', async () => {
    const l = await spawnListener(['--secret', SECRET, '--event', 'signable-operation:update', '--once'], t.env);
    expect((await post(l.url, hookBody('credentials:create'))).status).toBe(200);
    await sleep(100);
    expect(l.child.exitCode).toBeNull();
    expect(l.stdout()).toBe('');
    expect(
      (await post(l.url, hookBody('signable-operation:update', { id: 'op-1', status: 'EXECUTED', type: 'TRANSFER' })))
        .status,
    ).toBe(200);
    expect(await l.exited).toBe(0);
    expect(l.events()).toEqual([
      expect.objectContaining({
        event: 'signable-operation:update',
        content: { id: 'op-1', status: 'EXECUTED', type: 'TRANSFER' },
      }),
    ]);
  });

  test.each([['--wait-timeout'], ['--timeout']])('%s 1 exits 9 when nothing matching came', async (flag) => {
    const l = await spawnListener(['--secret', SECRET, '--event', 'transaction:update', flag, '1'], t.env);
    expect((await post(l.url, hookBody('transaction:create'))).status).toBe(200);
    expect(await l.exited).toBe(9);
    expect(l.stderr()).toMatch(/no transaction:update event came within 1 s/);
    expect(l.stdout()).toBe('');
  });

  test('--wait-timeout after matching events ends the listening with exit 0, the events printed', async () => {
    // before, it was exit 9 "no webhook event came" even with the events on stdout
    const l = await spawnListener(['--secret', SECRET, '--event', 'transaction:update', '--wait-timeout', '1'], t.env);
    expect((await post(l.url, hookBody('transaction:update', { id: 'tx-9' }))).status).toBe(200);
    expect(await l.exited).toBe(0);
    expect(l.events()).toEqual([expect.objectContaining({ event: 'transaction:update' })]);
    expect(l.stderr()).toMatch(/stopped listening after 1 s and 1 event\(s\)/);
  });

  test("--forward-to posts the body as received and prints the target's answer on stderr", async () => {
    const target = await startReceiver();
    target.respond = (_r, res) => res.writeHead(202, { 'content-type': 'text/plain' }).end('queued \x1b[31mred\x1b[0m');
    const l = await spawnListener(['--secret', SECRET, '--forward-to', `${target.url}/app/hooks`], t.env);
    try {
      const body = hookBody('credentials:update', { id: 'fwd-1', status: 'UPDATED' });
      expect((await post(l.url, body)).status).toBe(200);
      const [got] = await target.waitFor(1);
      expect(got!.path).toBe('/app/hooks');
      expect(got!.body).toBe(body);
      await l.waitForStderr(
        /forwarded credentials:update to http:\/\/127\.0\.0\.1:\d+\/app\/hooks: 202 \(\d+ ms\) queued red/,
      );
      expect(l.stderr()).not.toContain('\x1b[31m');
      await l.waitForStdoutLines(1);

      // a redirect from the target is reported, not followed
      const elsewhere = await startReceiver();
      target.respond = (_r, res) => res.writeHead(307, { location: `${elsewhere.url}/else` }).end();
      expect((await post(l.url, hookBody('credentials:update', { id: 'fwd-2' }))).status).toBe(200);
      await l.waitForStderr(/forwarded credentials:update to http:\/\/127\.0\.0\.1:\d+\/app\/hooks: 307/);
      await sleep(100);
      expect(elsewhere.received).toHaveLength(0);
      await elsewhere.close();
    } finally {
      await stop(l);
      await target.close();
    }
  });

  test('when the reader of stdout goes away (| head -1) the listener deregisters and ends quietly', async () => {
    const l = await spawnListener(['--register', '--event', 'credentials:create'], t.env);
    l.child.stdout.destroy();
    await runCli(['sandbox', 'trigger', 'credentials:create'], { env: t.env });
    await runCli(['sandbox', 'trigger', 'credentials:create'], { env: t.env });
    expect(await l.exited).toBe(0);
    expect(l.stderr()).toMatch(/removed webhook/);
    expect(l.stderr()).not.toMatch(/EPIPE|\n\s+at /);
    expect(JSON.parse((await runCli(['webhooks', 'list', '-o', 'json'], { env: t.env })).stdout)).toEqual([]);
  });

  test('a port in use is a usage error (2), and a wrong --event is refused before listening', async () => {
    const l = await spawnListener(['--secret', SECRET], t.env);
    try {
      const r = await spawnCli(['webhooks', 'listen', '--port', String(l.port), '--secret', SECRET], { env: t.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/port \d+ on 127\.0\.0\.1 is already in use/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await stop(l);
    }
    const bad = await runCli(['webhooks', 'listen', '--event', 'credentials:delete', '--secret', SECRET], {
      env: t.env,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown event "credentials:delete"/);
  });
});
