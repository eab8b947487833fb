// The sandbox's Events v2 webhooks at the wire: /events/v2/webhook-endpoints as the vendor reference
// has it, signed {context, content, event} deliveries with the reference's bodies when data changes,
// retries on 408/429/5xx only, the delivery record and resend.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { verifySignature } from '../../src/contract/webhook-signature.js';
import { connectTestBank } from '../helpers/commands.js';
import { clientToken, raw, startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { sleep, startReceiver, type Receiver, type Received } from './helpers.js';

let t: TestEnv;
let rx: Receiver;
let conn: Record<string, string>;
let client: Record<string, string>;
const PATH = '/events/v2/webhook-endpoints';

beforeAll(async () => {
  t = await startTestSandbox({ webhooks: { retryDelaysMs: [20, 40], maxAttempts: 4, timeoutMs: 1_000 } });
  conn = { authorization: `Token ${t.sandbox.connectorToken}` };
  client = { authorization: `Bearer ${await clientToken(t.sandbox, ['webhook-endpoints'])}` };
});
afterAll(async () => t.close());
afterEach(async () => {
  await rx?.close();
  t.sandbox.reset();
  client = { authorization: `Bearer ${await clientToken(t.sandbox, ['webhook-endpoints'])}` };
});

const example = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/reference/examples/${name}`, import.meta.url), 'utf8')).body;

async function create(url: string, enabledEvents: string[], extra: Record<string, unknown> = {}) {
  const r = await raw(t.sandbox.baseUrl, 'POST', PATH, { headers: client, json: { url, enabledEvents, ...extra } });
  expect(r.status, r.text).toBe(200);
  return r.json() as { id: string; secret: string; [k: string]: unknown };
}

const trigger = (body: Record<string, unknown>) =>
  raw(t.sandbox.baseUrl, 'POST', '/sandbox/trigger', { headers: conn, json: body });
const deliveries = async (query = '') =>
  (await raw(t.sandbox.baseUrl, 'GET', `/sandbox/webhooks/deliveries${query}`, { headers: conn })).json().deliveries;

/** The received request, checked to be signed with this secret now; its parsed body. */
function verified(r: Received, secret: string): any {
  const check = verifySignature(r.headers['x-tink-signature'], Buffer.from(r.body), secret, Date.now());
  expect(check).toMatchObject({ ok: true });
  return r.json();
}

describe('registration (/events/v2/webhook-endpoints, client token with webhook-endpoints)', () => {
  test('create answers the WebhookEndpoint with a generated secret, shown only then; list, update, delete', async () => {
    const c = await create('https://hooks.example.com/tink', ['refresh:finished'], { description: "Alice's webhook" });
    const shape = example('POST__events_v2_webhook-endpoints.json');
    expect(Object.keys(c).sort()).toEqual(Object.keys(shape).sort());
    expect(c).toMatchObject({ description: "Alice's webhook", disabled: false, enabledEvents: ['refresh:finished'] });
    expect(c.secret.length).toBeGreaterThanOrEqual(32);
    expect(c.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const list = (await raw(t.sandbox.baseUrl, 'GET', PATH, { headers: client })).json();
    expect(list).toEqual({ nextPageToken: '', webhookEndpoints: [expect.objectContaining({ id: c.id })] });
    expect(JSON.stringify(list)).not.toContain(c.secret);

    const u = await raw(t.sandbox.baseUrl, 'PATCH', `${PATH}/${c.id}`, {
      headers: client,
      json: { webhookEndpoint: { enabledEvents: ['account:created', 'account:updated'], disabled: true } },
    });
    expect(u.status).toBe(200);
    expect(u.json()).toMatchObject({ id: c.id, enabledEvents: ['account:created', 'account:updated'], disabled: true });
    expect(u.text).not.toContain(c.secret);

    const d = await raw(t.sandbox.baseUrl, 'DELETE', `${PATH}/${c.id}`, { headers: client });
    expect(d.status).toBe(200);
    expect((await raw(t.sandbox.baseUrl, 'DELETE', `${PATH}/${c.id}`, { headers: client })).status).toBe(404);
  });

  test('pages follow pageSize and nextPageToken', async () => {
    for (let i = 0; i < 3; i++) await create(`https://hooks.example.com/${i}`, ['refresh:finished']);
    const p1 = (await raw(t.sandbox.baseUrl, 'GET', `${PATH}?pageSize=2`, { headers: client })).json();
    expect(p1.webhookEndpoints).toHaveLength(2);
    const p2 = (
      await raw(t.sandbox.baseUrl, 'GET', `${PATH}?pageSize=2&pageToken=${p1.nextPageToken}`, { headers: client })
    ).json();
    expect(p2).toMatchObject({ nextPageToken: '', webhookEndpoints: [{ url: 'https://hooks.example.com/2' }] });
  });

  test.each([
    [{ url: 'http://hooks.example.com/x', enabledEvents: ['refresh:finished'] }, /https/],
    [{ url: 'https://hooks.example.com/x', enabledEvents: ['credentials:update'] }, /unknown event/],
    [{ url: 'https://hooks.example.com/x', enabledEvents: [] }, /non-empty/],
    [{ url: 'https://hooks.example.com/x', enabledEvents: ['refresh:finished'], secret: 'mine' }, /generated/],
    [{ url: 'https://hooks.example.com/x', enabledEvents: ['refresh:finished'], disabled: 'no' }, /true or false/],
  ])('%j is 400 with the reason', async (body, message) => {
    const r = await raw(t.sandbox.baseUrl, 'POST', PATH, { headers: client, json: body });
    expect(r.status).toBe(400);
    expect(r.json().errorMessage).toMatch(message);
  });

  test('the same url with one of the same events is 409; no token 401; a token without the scope 403', async () => {
    await create('https://hooks.example.com/x', ['refresh:finished', 'account:created']);
    const dup = await raw(t.sandbox.baseUrl, 'POST', PATH, {
      headers: client,
      json: { url: 'https://hooks.example.com/x', enabledEvents: ['account:created'] },
    });
    expect(dup.status).toBe(409);
    expect((await raw(t.sandbox.baseUrl, 'GET', PATH)).status).toBe(401);
    const other = { authorization: `Bearer ${await clientToken(t.sandbox, ['user:web_hooks'])}` };
    expect((await raw(t.sandbox.baseUrl, 'GET', PATH, { headers: other })).status).toBe(403);
  });
});

describe('delivery', () => {
  test('a trigger delivers {context, content, event} signed with the secret, shaped as the reference', async () => {
    rx = await startReceiver();
    const ep = await create(`${rx.url}/in`, ['refresh:finished']);
    const r = await trigger({ event: 'refresh:finished', status: 'AUTHENTICATION_ERROR' });
    expect(r.json()).toMatchObject({ event: 'refresh:finished', webhooks: 1 });
    const [got] = await rx.waitFor(1);
    const body = verified(got!, ep.secret);
    const ref = example('EVENT__refresh_finished__error.json');
    expect(Object.keys(body)).toEqual(Object.keys(ref));
    expect(Object.keys(body.content).sort()).toEqual(Object.keys(ref.content).sort());
    expect(body.content.detailedError).toEqual({
      type: 'USER_LOGIN_ERROR',
      displayMessage: expect.any(String),
      details: { reason: 'STATIC_CREDENTIALS_INCORRECT', retryable: false },
    });
    expect(body.content).toMatchObject({ status: 'AUTHENTICATION_ERROR', credentialsStatus: 'AUTHENTICATION_ERROR' });
    expect(got!.body).not.toContain(ep.secret);
  });

  test('connecting a bank: account:created per account, account-transactions:modified with the counts and dates, then refresh:finished', async () => {
    rx = await startReceiver();
    const ep = await create(`${rx.url}/in`, [
      'refresh:finished',
      'account:created',
      'account-transactions:modified',
      'account-booked-transactions:modified',
    ]);
    const { userId } = await userWithToken(t.sandbox, ['user:read']);
    const credentialsId = await connectTestBank({ ...t.env, BANKCTL_USER: userId });
    const accounts = [...t.sandbox.store.accounts.values()].filter((a) => a.userId === userId);
    const txs = [...t.sandbox.store.transactions.values()].filter((x) => x.userId === userId);
    expect(accounts.length).toBeGreaterThan(0);
    const withTx = new Set(txs.map((x) => x.accountId));
    const expected = accounts.length + withTx.size * 2 + 1;
    const all = (await rx.waitFor(expected)).map((g) => verified(g, ep.secret));
    await sleep(50);
    expect(rx.received).toHaveLength(expected);
    const names = all.map((b) => b.event);
    expect(names.at(-1)).toBe('refresh:finished');
    expect(names.filter((n) => n === 'account:created')).toHaveLength(accounts.length);
    for (const b of all) expect(b.context.userId).toBe(userId);
    const modified = all.filter((b) => b.event === 'account-transactions:modified');
    expect(new Set(modified.map((b) => b.content.account.id))).toEqual(withTx);
    for (const m of modified) {
      const mine = txs.filter((x) => x.accountId === m.content.account.id);
      const dates = mine.map((x) => x.bookedDate).sort();
      expect(m.content.transactions).toEqual({
        earliestModifiedBookedDate: dates[0],
        latestModifiedBookedDate: dates.at(-1),
        inserted: mine.length,
        updated: 0,
        deleted: 0,
      });
    }
    const ref = example('EVENT__account-transactions_modified.json');
    expect(Object.keys(modified[0].content.transactions).sort()).toEqual(Object.keys(ref.content.transactions).sort());
    expect(all.at(-1).content).toMatchObject({
      credentialsId,
      status: 'UPDATED',
      credentialsStatus: 'UPDATED',
      source: 'OPERATION_SOURCE_API',
    });
    expect(all.at(-1).content.detailedError).toBeUndefined();
    expect(typeof all.at(-1).content.sessionExpiryDate).toBe('number');

    // a refresh that finds nothing new sends refresh:finished only
    rx.received.length = 0;
    const { runCli } = await import('../helpers/cli.js');
    const again = await runCli(['credentials', 'refresh', credentialsId, '--wait', '--poll-interval', '20'], {
      env: { ...t.env, BANKCTL_USER: userId },
    });
    expect(again.code, again.stderr).toBe(0);
    await rx.waitFor(1);
    await sleep(50);
    expect(rx.received.map((g) => g.json().event)).toEqual(['refresh:finished']);
  });

  test('connector ingests and deletes send the transaction events of the account', async () => {
    rx = await startReceiver();
    const ep = await create(`${rx.url}/in`, [
      'account:created',
      'account-transactions:modified',
      'account-transactions:deleted',
    ]);
    const c = (m: string, p: string, b: unknown) =>
      raw(t.sandbox.baseUrl, m, p, { headers: { ...conn, 'content-type': 'application/json' }, json: b });
    expect((await c('POST', '/connector/users', { externalId: 'v2u', token: 'v2u-token', market: 'SE' })).status).toBe(
      204,
    );
    const acc = { externalId: 'a1', name: 'Main', number: '1', balance: 0, type: 'CHECKING' };
    expect((await c('POST', '/connector/users/v2u/accounts', { accounts: [acc] })).status).toBe(204);
    const tx = (id: string, date: number, amount: number) => ({
      externalId: id,
      amount,
      date,
      description: id,
      type: 'DEFAULT',
    });
    const d1 = Date.UTC(2026, 4, 31);
    const d2 = Date.UTC(2026, 5, 1);
    const ingest = await c('POST', '/connector/users/v2u/transactions', {
      type: 'REAL_TIME',
      transactionAccounts: [{ externalId: 'a1', balance: -3, transactions: [tx('t1', d1, -1), tx('t2', d2, -2)] }],
    });
    expect(ingest.status, ingest.text).toBe(204);
    const t1 = [...t.sandbox.store.transactions.values()].find((x) => x.externalId === 't1')!.id;
    const del = await c('POST', '/connector/users/v2u/transactions/delete', {
      type: 'REAL_TIME',
      transactionAccounts: [{ externalId: 'a1', balance: -2, transactions: [{ externalId: 't1' }] }],
    });
    expect(del.status, del.text).toBe(204);
    const got = (await rx.waitFor(4)).map((g) => verified(g, ep.secret));
    expect(got.map((b) => b.event)).toEqual([
      'account:created',
      'account-transactions:modified',
      'account-transactions:modified',
      'account-transactions:deleted',
    ]);
    expect(got[0].context.externalUserId).toBe('v2u');
    expect(got[1].content.transactions).toEqual({
      earliestModifiedBookedDate: '2026-05-31',
      latestModifiedBookedDate: '2026-06-01',
      inserted: 2,
      updated: 0,
      deleted: 0,
    });
    expect(got[2].content.transactions).toMatchObject({ inserted: 0, deleted: 1 });
    expect(got[3].content).toEqual({
      userId: got[0].context.userId,
      externalUserId: 'v2u',
      account: { id: got[0].content.account.id },
      transactions: { ids: [t1] },
    });
  });

  test('retries on 503, 429 and 408 with backoff, in order per endpoint; a 400 is not retried', async () => {
    rx = await startReceiver();
    const codes = [503, 429, 408, 200, 400, 200];
    rx.respond = (_r, res, n) => res.writeHead(codes[n - 1] ?? 200).end();
    await create(`${rx.url}/in`, ['account:created', 'account:updated']);
    await trigger({ event: 'account:created' });
    await trigger({ event: 'account:updated' });
    await trigger({ event: 'account:created' });
    await rx.waitFor(6);
    expect(rx.received.map((g) => g.json().event)).toEqual([
      'account:created',
      'account:created',
      'account:created',
      'account:created',
      'account:updated',
      'account:created',
    ]);
    const ds = await deliveries();
    expect(ds.map((d: any) => [d.event, d.status, d.attempts, d.lastStatusCode])).toEqual([
      ['account:created', 'delivered', 4, 200],
      ['account:updated', 'failed', 1, 400],
      ['account:created', 'delivered', 1, 200],
    ]);
    expect(JSON.stringify(ds)).not.toContain('"body"');
  });

  test('a receiver that keeps answering 500 is given up after 4 attempts; resend delivers the same body with a fresh signature', async () => {
    rx = await startReceiver();
    let down = true;
    rx.respond = (_r, res) => res.writeHead(down ? 500 : 200).end();
    const ep = await create(`${rx.url}/in`, ['refresh:finished']);
    await trigger({ event: 'refresh:finished' });
    await rx.waitFor(4);
    await expect.poll(async () => (await deliveries('?status=failed')).length).toBe(1);
    const [failed] = await deliveries('?status=failed&event=refresh:finished');
    expect(failed).toMatchObject({ attempts: 4, lastStatusCode: 500, kind: 'v2', endpointId: ep.id });
    expect(failed.nextRetryAt).toBeUndefined();
    down = false;
    const r = await raw(t.sandbox.baseUrl, 'POST', `/sandbox/webhooks/deliveries/${failed.id}/resend`, {
      headers: conn,
    });
    expect(r.status).toBe(200);
    expect(r.json()).toMatchObject({ resendOf: failed.id, event: 'refresh:finished' });
    await rx.waitFor(5);
    expect(rx.received[4]!.body).toBe(rx.received[0]!.body);
    verified(rx.received[4]!, ep.secret);
    await expect.poll(async () => (await deliveries(`?endpoint=${ep.id}&status=delivered`)).length).toBe(1);
  });

  test('a disabled endpoint receives nothing; an endpoint gets only its events', async () => {
    rx = await startReceiver();
    const a = await create(`${rx.url}/a`, ['account:created'], { disabled: true });
    await create(`${rx.url}/b`, ['account:updated']);
    expect((await trigger({ event: 'account:created' })).json().webhooks).toBe(0);
    await trigger({ event: 'account:updated' });
    await rx.waitFor(1);
    await sleep(50);
    expect(rx.received.map((g) => g.path)).toEqual(['/b']);
    expect(a.id).toBeTruthy();
  });

  test.each([
    'account:created',
    'account:updated',
    'account-transactions:modified',
    'account-booked-transactions:modified',
    'account-transactions:deleted',
    'refresh:finished',
  ])('sandbox trigger %s emits it with the reference content shape', async (event) => {
    rx = await startReceiver();
    await create(`${rx.url}/in`, [event]);
    const r = await trigger({ event });
    expect(r.status).toBe(200);
    const [got] = await rx.waitFor(1);
    const b = got!.json();
    expect(b.event).toBe(event);
    expect(Object.keys(b)).toEqual(['context', 'content', 'event']);
    if (event.startsWith('account-')) expect(b.content.account.id).toEqual(expect.any(String));
    if (event.endsWith('transactions:modified')) expect(b.content.transactions.inserted).toBe(1);
    if (event === 'account-transactions:deleted') expect(b.content.transactions.ids).toHaveLength(1);
  });
});

describe('/sandbox/* delivery routes', () => {
  test('refuse non-sandbox credentials (401) and bad input (400 with a message); an unknown delivery is 404', async () => {
    expect((await raw(t.sandbox.baseUrl, 'GET', '/sandbox/webhooks/deliveries')).status).toBe(401);
    const wrong = { authorization: 'Token not-the-connector-token' };
    expect((await raw(t.sandbox.baseUrl, 'GET', '/sandbox/webhooks/deliveries', { headers: wrong })).status).toBe(401);
    expect(
      (await raw(t.sandbox.baseUrl, 'POST', '/sandbox/webhooks/deliveries/x/resend', { headers: wrong })).status,
    ).toBe(401);
    const bad = await raw(t.sandbox.baseUrl, 'GET', '/sandbox/webhooks/deliveries?status=lost', { headers: conn });
    expect(bad.status).toBe(400);
    expect(bad.json().errorMessage).toMatch(/delivered, failed or pending/);
    const missing = await raw(t.sandbox.baseUrl, 'POST', '/sandbox/webhooks/deliveries/nope/resend', { headers: conn });
    expect(missing.status).toBe(404);
    expect(missing.json().errorMessage).toMatch(/delivery nope not found/);
    const badTrigger = await trigger({ event: 'refresh:finished', status: 'HAPPY' });
    expect(badTrigger.status).toBe(400);
    expect(badTrigger.json().errorMessage).toMatch(/UPDATED/);
  });

  test('random query strings never get a 5xx', async () => {
    const fc = await import('fast-check');
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('event', 'status', 'endpoint', 'x'), fc.string({ maxLength: 300 })),
        async (q) => {
          const r = await raw(t.sandbox.baseUrl, 'GET', `/sandbox/webhooks/deliveries?${new URLSearchParams(q)}`, {
            headers: conn,
          });
          return r.status < 500;
        },
      ),
      { numRuns: 100, seed: 7 },
    );
  });
});
