// The test bench's /sandbox/* endpoints on the wire: what they do to the state, X-Request-ID, the
// request log, 401 for credentials the sandbox does not know, 400 with a body for bad input.
import { connect } from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { raw, startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { ALL_SCOPES } from '../../src/contract/index.js';

let t: TestEnv;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await startTestSandbox({ authDelayMs: 20 });
  admin = { authorization: `Token ${t.sandbox.connectorToken}` };
});
afterAll(() => t.close());

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A user with UPDATED password credentials and their accounts. */
async function connected() {
  const u = await userWithToken(t.sandbox, ALL_SCOPES);
  const auth = { authorization: `Bearer ${u.token}` };
  const c = await raw(t.sandbox.baseUrl, 'POST', '/api/v1/credentials', {
    headers: auth,
    json: { providerName: 'se-test-other-password', fields: { username: 'test-user', password: 'test-password' } },
  });
  const id = c.json().id as string;
  await until(
    () => raw(t.sandbox.baseUrl, 'GET', `/api/v1/credentials/${id}`, { headers: auth }),
    (r) => r.json().status === 'UPDATED',
  );
  const accounts = (await raw(t.sandbox.baseUrl, 'GET', '/data/v2/accounts', { headers: auth })).json().accounts;
  return { ...u, auth, id, accounts };
}

describe('authentication and bad input', () => {
  const routes: Array<[string, string, unknown?]> = [
    ['POST', '/sandbox/credentials/abc/status', { status: 'UPDATED' }],
    ['POST', '/sandbox/consents/abc/expire', {}],
    ['POST', '/sandbox/transactions', { userId: 'x', accountId: 'y', count: 1 }],
    ['GET', '/sandbox/clock'],
    ['POST', '/sandbox/clock', { advanceMs: 1 }],
    ['POST', '/sandbox/reset', { keepClients: true }],
    ['POST', '/sandbox/fixtures', {}],
    ['GET', '/sandbox/logs'],
  ];
  test.each(routes)(
    '%s %s: 401 without the sandbox credentials, 401 with a token it does not know',
    async (m, p, body) => {
      const none = await raw(t.sandbox.baseUrl, m, p, { json: body });
      expect(none.status).toBe(401);
      const foreign = await raw(t.sandbox.baseUrl, m, p, {
        json: body,
        headers: { authorization: 'Token not-the-sandbox' },
      });
      expect(foreign.status).toBe(401);
      expect(foreign.json().errorMessage).toMatch(/not valid/);
    },
  );
  test('bad input is a 400 naming the field', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/sandbox/clock', { advanceMs: -5 }, 'advanceMs'],
      ['POST', '/sandbox/clock', { time: '2026-02-30' }, 'time'],
      ['POST', '/sandbox/clock', {}, 'advanceMs'],
      ['POST', '/sandbox/transactions', { userId: 'x', accountId: 'y', count: 0 }, 'count'],
      [
        'POST',
        '/sandbox/transactions',
        { userId: 'x', accountId: 'y', count: 2, amountMin: '1,5', amountMax: '2' },
        'amountMin',
      ],
      ['POST', '/sandbox/reset', { keepClients: 'yes' }, 'keepClients'],
    ];
    for (const [m, p, body, field] of cases) {
      const r = await raw(t.sandbox.baseUrl, m, p, { headers: admin, json: body });
      expect(r.status, `${m} ${p} ${JSON.stringify(body)}`).toBe(400);
      expect(r.json().errorDetails?.field).toBe(field);
    }
    const logs = await raw(t.sandbox.baseUrl, 'GET', '/sandbox/logs?status=6xx', { headers: admin });
    expect(logs.status).toBe(400);
    expect(logs.json().errorMessage).toMatch(/a class 1xx to 5xx/);
  });
});

describe('state controls', () => {
  test('set-status AUTHENTICATION_ERROR: the event, the detailed error; a refresh walks the flow again', async () => {
    const c = await connected();
    const r = await raw(t.sandbox.baseUrl, 'POST', `/sandbox/credentials/${c.id}/status`, {
      headers: admin,
      json: { status: 'AUTHENTICATION_ERROR', payload: 'Wrong code' },
    });
    expect(r.status).toBe(200);
    expect(r.json()).toMatchObject({ id: c.id, status: 'AUTHENTICATION_ERROR', statusPayload: 'Wrong code' });
    expect(r.json().detailedError.type).toBe('USER_LOGIN_ERROR');
    const ev = t.sandbox.events.recent.filter((e) => e.content.id === c.id).at(-1)!;
    expect(ev.event).toBe('credentials:update');
    expect(ev.content.status).toBe('AUTHENTICATION_ERROR');
    const finished = t.sandbox.events.recent
      .filter((e) => e.event === 'refresh:finished' && e.content.credentialsId === c.id)
      .at(-1)!;
    expect(finished.content).toMatchObject({
      status: 'AUTHENTICATION_ERROR',
      detailedError: { type: 'USER_LOGIN_ERROR' },
    });
    await raw(t.sandbox.baseUrl, 'POST', `/api/v1/credentials/${c.id}/refresh`, { headers: c.auth });
    const after = await until(
      () => raw(t.sandbox.baseUrl, 'GET', `/api/v1/credentials/${c.id}`, { headers: c.auth }),
      (x) => x.json().status === 'UPDATED',
    );
    expect(after.json().status).toBe('UPDATED');
    const seen = t.sandbox.events.recent.filter((e) => e.content.id === c.id).map((e) => e.content.status);
    expect(seen.slice(seen.indexOf('AUTHENTICATION_ERROR'))).toEqual([
      'AUTHENTICATION_ERROR',
      'AUTHENTICATING',
      'UPDATING',
      'UPDATED',
    ]);
  });

  test('set-status SESSION_EXPIRED: a refresh ends SESSION_EXPIRED until authenticate', async () => {
    const c = await connected();
    await raw(t.sandbox.baseUrl, 'POST', `/sandbox/credentials/${c.id}/status`, {
      headers: admin,
      json: { status: 'SESSION_EXPIRED' },
    });
    await raw(t.sandbox.baseUrl, 'POST', `/api/v1/credentials/${c.id}/refresh`, { headers: c.auth });
    await new Promise((r) => setTimeout(r, 200));
    const refreshed = await raw(t.sandbox.baseUrl, 'GET', `/api/v1/credentials/${c.id}`, { headers: c.auth });
    expect(refreshed.json().status).toBe('SESSION_EXPIRED');
    expect(refreshed.json().sessionExpiryDate).toBeLessThan(t.sandbox.clock.now());
    await raw(t.sandbox.baseUrl, 'POST', `/api/v1/credentials/${c.id}/authenticate`, { headers: c.auth });
    const ok = await until(
      () => raw(t.sandbox.baseUrl, 'GET', `/api/v1/credentials/${c.id}`, { headers: c.auth }),
      (x) => x.json().status === 'UPDATED',
    );
    expect(ok.json().sessionExpiryDate).toBeGreaterThan(t.sandbox.clock.now());
  });

  test('set-status PERMANENT_ERROR is final: refresh, authenticate and update are refused (400), delete is not', async () => {
    const c = await connected();
    await raw(t.sandbox.baseUrl, 'POST', `/sandbox/credentials/${c.id}/status`, {
      headers: admin,
      json: { status: 'PERMANENT_ERROR' },
    });
    const base = `/api/v1/credentials/${c.id}`;
    for (const [m, p, json] of [
      ['POST', `${base}/refresh`, undefined],
      ['POST', `${base}/authenticate`, undefined],
      ['PUT', base, { fields: { username: 'test-user', password: 'test-password' } }],
    ] as const) {
      const r = await raw(t.sandbox.baseUrl, m, p, { headers: c.auth, ...(json ? { json } : {}) });
      expect(r.status, `${m} ${p}`).toBe(400);
      expect(r.json().errorMessage).toMatch(/PERMANENT_ERROR and cannot be/);
    }
    const still = await raw(t.sandbox.baseUrl, 'GET', base, { headers: c.auth });
    expect(still.json().status).toBe('PERMANENT_ERROR');
    expect((await raw(t.sandbox.baseUrl, 'DELETE', base, { headers: c.auth })).status).toBe(204);
  });

  test('set-status AWAITING_SUPPLEMENTAL_INFORMATION asks a real round that a supplement answers', async () => {
    const c = await connected();
    const r = await raw(t.sandbox.baseUrl, 'POST', `/sandbox/credentials/${c.id}/status`, {
      headers: admin,
      json: { status: 'AWAITING_SUPPLEMENTAL_INFORMATION' },
    });
    expect(r.json().status).toBe('AWAITING_SUPPLEMENTAL_INFORMATION');
    expect(JSON.parse(r.json().supplementalInformation)[0].name).toBe('otp');
    const s = await raw(t.sandbox.baseUrl, 'POST', `/api/v1/credentials/${c.id}/supplemental-information`, {
      headers: c.auth,
      json: { information: { otp: '123456' } },
    });
    expect(s.status).toBe(204);
    const ok = await until(
      () => raw(t.sandbox.baseUrl, 'GET', `/api/v1/credentials/${c.id}`, { headers: c.auth }),
      (x) => x.json().status === 'UPDATED',
    );
    expect(ok.json().status).toBe('UPDATED');
  });

  test('consents expire: the consent shows SESSION_EXPIRED with its expiry in the past', async () => {
    const c = await connected();
    const r = await raw(t.sandbox.baseUrl, 'POST', `/sandbox/consents/${c.id}/expire`, { headers: admin });
    expect(r.status).toBe(200);
    const consents = await raw(t.sandbox.baseUrl, 'GET', '/api/v1/provider-consents', { headers: c.auth });
    const mine = consents.json().providerConsents.find((x: { credentialsId: string }) => x.credentialsId === c.id);
    expect(mine.status).toBe('SESSION_EXPIRED');
    expect(mine.sessionExpiryDate).toBeLessThan(t.sandbox.clock.now());
    expect((await raw(t.sandbox.baseUrl, 'POST', '/sandbox/consents/nope/expire', { headers: admin })).status).toBe(
      404,
    );
  });

  test('transactions add: exact balance, events, v2 shows them', async () => {
    const c = await connected();
    const account = c.accounts.find((a: { type: string }) => a.type === 'CHECKING');
    const before = t.sandbox.store.accounts.get(account.id)!.balance;
    const r = await raw(t.sandbox.baseUrl, 'POST', '/sandbox/transactions', {
      headers: admin,
      json: {
        userId: c.userId,
        accountId: account.id,
        transactions: [
          { amount: '-0.10', date: '2026-01-05', description: 'Tiny', category: 'expenses:food.coffee' },
          { amount: '-0.20', date: '2026-01-05', description: 'Tiny 2' },
          { amount: '1000000000000.01', date: '2026-01-06', description: 'Windfall', pending: true },
        ],
      },
    });
    expect(r.status).toBe(200);
    const { ids, balance } = r.json();
    expect(ids).toHaveLength(3);
    const { addDecimals } = await import('../../src/contract/decimal.js');
    expect(balance).toBe(addDecimals([before, '-0.10', '-0.20', '1000000000000.01']));
    const events = t.sandbox.events.recent.filter(
      (e) => e.event === 'transaction:create' && ids.includes(e.content.id),
    );
    expect(events).toHaveLength(3);
    const v2 = t.sandbox.events.recent
      .filter(
        (e) => e.event === 'account-transactions:modified' && (e.content.account as { id: string }).id === account.id,
      )
      .at(-1)!;
    expect((v2.content.transactions as { inserted: number }).inserted).toBe(3);
    const listed = await raw(
      t.sandbox.baseUrl,
      'GET',
      `/data/v2/transactions?accountIdIn=${account.id}&pageSize=100&bookedDateGte=2026-01-05&bookedDateLte=2026-01-06&statusIn=BOOKED&statusIn=PENDING`,
      { headers: c.auth },
    );
    expect(listed.status).toBe(200);
    const got = listed.json().transactions.map((x: { id: string }) => x.id);
    for (const id of ids) expect(got).toContain(id);
  });

  test('transactions add refuses a connector account and an unknown account', async () => {
    const u = await userWithToken(t.sandbox, ALL_SCOPES);
    const r = await raw(t.sandbox.baseUrl, 'POST', '/sandbox/transactions', {
      headers: admin,
      json: { userId: u.userId, accountId: 'f'.repeat(32), count: 3 },
    });
    expect(r.status).toBe(404);
    expect(r.json().errorMessage).toMatch(/has no account/);
  });
});

describe('clock', () => {
  test('advance moves time for everything, and fires the timers that came due', async () => {
    const before = (await raw(t.sandbox.baseUrl, 'GET', '/sandbox/clock', { headers: admin })).json();
    const r = await raw(t.sandbox.baseUrl, 'POST', '/sandbox/clock', {
      headers: admin,
      json: { advanceMs: 3_600_000 },
    });
    expect(r.json().epochMs - before.epochMs).toBeGreaterThanOrEqual(3_600_000);
    let fired = false;
    t.sandbox.context.setTimeout(() => (fired = true), 10 * 60_000);
    await raw(t.sandbox.baseUrl, 'POST', '/sandbox/clock', { headers: admin, json: { advanceMs: 11 * 60_000 } });
    await new Promise((res) => setImmediate(res));
    expect(fired).toBe(true);
    const set = await raw(t.sandbox.baseUrl, 'POST', '/sandbox/clock', {
      headers: admin,
      json: { time: '2030-06-01T12:00:00Z' },
    });
    expect(set.json().now.slice(0, 16)).toBe('2030-06-01T12:00');
  });
});

describe('request log and X-Request-ID', () => {
  test('a handler that waits for its body answers with its own request id, though others began meanwhile', async () => {
    // a POST whose body comes late: while its handler waits, GETs are answered; each answer
    // carries the id the log has for that request, none another's
    const { hostname, port } = new URL(t.sandbox.baseUrl);
    const form = 'grant_type=client_credentials&client_id=nobody&client_secret=x';
    const sock = connect(Number(port), hostname);
    await once(sock, 'connect');
    let text = '';
    sock.on('data', (c: Buffer) => (text += c.toString('latin1')));
    sock.write(
      `POST /api/v1/oauth/token HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n`,
    );
    const gets = [];
    for (let i = 0; i < 3; i++) gets.push(await raw(t.sandbox.baseUrl, 'GET', '/version'));
    sock.end(form);
    await once(sock, 'close');
    const postId = /^x-request-id: (.*)\r$/im.exec(text)?.[1];
    expect(text.slice(0, 12)).toBe('HTTP/1.1 401');
    const ids = [postId, ...gets.map((g) => g.headers.get('x-request-id'))];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(4);
    const logs = await raw(t.sandbox.baseUrl, 'GET', '/sandbox/logs?limit=50', { headers: admin });
    const entries = logs.json().entries as Array<{ requestId: string; path: string; status: number }>;
    const entry = (id: string | null | undefined) => entries.find((e) => e.requestId === id);
    expect(entry(postId)).toMatchObject({ path: '/api/v1/oauth/token', status: 401 });
    for (const g of gets) expect(entry(g.headers.get('x-request-id'))).toMatchObject({ path: '/version', status: 200 });
  });

  test("a waiting handler's entry keeps its own caller and latency, though others began meanwhile", async () => {
    // the log notes the request being served in one object reused by every request answered at
    // once; one that waits must keep its own: a user's token on a POST whose body comes late, then
    // GETs without a token answered while it waits
    const u = await userWithToken(t.sandbox, ['accounts:read']);
    const { hostname, port } = new URL(t.sandbox.baseUrl);
    const form = 'grant_type=client_credentials&client_id=nobody&client_secret=x';
    const sock = connect(Number(port), hostname);
    await once(sock, 'connect');
    let text = '';
    sock.on('data', (c: Buffer) => (text += c.toString('latin1')));
    sock.write(
      `POST /api/v1/oauth/token HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n` +
        `Authorization: Bearer ${u.token}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n`,
    );
    const gets = [];
    for (let i = 0; i < 3; i++) gets.push(await raw(t.sandbox.baseUrl, 'GET', '/version'));
    await new Promise((r) => setTimeout(r, 60));
    sock.end(form);
    await once(sock, 'close');
    const postId = /^x-request-id: (.*)\r$/im.exec(text)?.[1];
    const logs = await raw(t.sandbox.baseUrl, 'GET', '/sandbox/logs?limit=50', { headers: admin });
    const entries = logs.json().entries as Array<Record<string, unknown>>;
    const post = entries.find((e) => e.requestId === postId);
    expect(post).toMatchObject({ path: '/api/v1/oauth/token', tokenKind: 'user', userId: u.userId });
    expect(post?.scopes).toEqual(['accounts:read']);
    expect(post?.latencyMs).toBeGreaterThanOrEqual(50);
    for (const g of gets) {
      const e = entries.find((x) => x.requestId === g.headers.get('x-request-id'));
      expect(e).toMatchObject({ path: '/version', status: 200, tokenKind: 'none', scopes: [] });
      expect(e?.userId).toBeUndefined();
    }
  });

  test('every response has an X-Request-ID; a sensible incoming one is kept', async () => {
    const a = await raw(t.sandbox.baseUrl, 'GET', '/api/v1/providers/SE');
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const b = await raw(t.sandbox.baseUrl, 'GET', '/nope', { headers: { 'x-request-id': 'my-trace-42' } });
    expect(b.status).toBe(404);
    expect(b.headers.get('x-request-id')).toBe('my-trace-42');
    const long = 'a'.repeat(300);
    const bad = await raw(t.sandbox.baseUrl, 'GET', '/nope', { headers: { 'x-request-id': long } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const logs = await raw(t.sandbox.baseUrl, 'GET', '/sandbox/logs?path=/nope&status=404', { headers: admin });
    const entries = logs.json().entries;
    expect(entries.map((e: { requestId: string }) => e.requestId)).toContain('my-trace-42');
    expect(entries.every((e: { status: number }) => e.status === 404)).toBe(true);
  });

  test('an entry names the token kind, scopes and user, never a secret', async () => {
    const u = await userWithToken(t.sandbox, ['accounts:read']);
    await raw(t.sandbox.baseUrl, 'GET', '/data/v2/accounts', { headers: { authorization: `Bearer ${u.token}` } });
    const logs = await raw(t.sandbox.baseUrl, 'GET', `/sandbox/logs?user=${u.userId}&method=get&path=/data/v2/*`, {
      headers: admin,
    });
    const e = logs.json().entries.at(-1);
    expect(e).toMatchObject({
      method: 'GET',
      path: '/data/v2/accounts',
      status: 200,
      tokenKind: 'user',
      scopes: ['accounts:read'],
      userId: u.userId,
    });
    expect(typeof e.latencyMs).toBe('number');
    expect(JSON.stringify(logs.json())).not.toContain(u.token);
    expect(JSON.stringify(logs.json())).not.toContain(t.sandbox.clientSecret);
  });
});

describe('openapi', () => {
  test('served without a token, describing the /sandbox routes', async () => {
    const r = await raw(t.sandbox.baseUrl, 'GET', '/openapi.json');
    expect(r.status).toBe(200);
    const doc = r.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/sandbox/clock'].post.security).toEqual([{ connectorToken: [] }, { bearer: [] }]);
  });
});
