// Hostile input on the read endpoints: random query strings, tokens and bodies answer 2xx or 4xx with
// a body, never 5xx, and the sandbox keeps serving.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { demo, reader, type Reader } from './helpers.js';

let t: TestEnv;
let r: Reader;
let accountId: string;
beforeAll(async () => {
  t = await startTestSandbox({ seed: 9 });
  r = await reader(t.sandbox);
  accountId = demo(t.sandbox, r.userId, 'hostile')[0]!.id;
});
afterAll(() => t.close());

const param = fc.constantFrom(
  'pageSize',
  'pageToken',
  'accountIdIn',
  'statusIn',
  'bookedDateGte',
  'bookedDateLte',
  'typeIn',
  'portfolioType',
  'locale',
);
const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1e3',
    '100',
    '101',
    '99999999999999999999',
    '2025-02-29',
    '2024-02-29',
    '9999-12-31',
    '0000-01-01',
    'BOOKED',
    'null',
    '%',
    'eyJ2IjoxfQ',
    'eyJ2IjoxLCJkIjpudWxsLCJzIjoiYSIsImkiOjF9',
  ),
  fc.base64String({ maxLength: 120 }),
);
const path = fc.constantFrom(
  '/data/v2/transactions',
  '/data/v2/accounts',
  '/api/v1/accounts/list',
  '/api/v1/investments',
  '/api/v1/loans',
  '/api/v1/identities',
  '/api/v1/categories',
);

it('query strings of every kind never get a 5xx', async () => {
  await fc.assert(
    fc.asyncProperty(path, fc.array(fc.tuple(param, value), { maxLength: 5 }), async (p, pairs) => {
      const q = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
      const res = await r.get(`${p}?${q}`);
      expect(res.status, `${p}?${q} -> ${res.text.slice(0, 200)}`).toBeLessThan(500);
      if (res.status >= 400) expect(res.text.length).toBeGreaterThan(0);
    }),
    { numRuns: 150 },
  );
});

it('bodies of every kind on PUT accounts and POST balance-refresh never get a 5xx', async () => {
  const body = fc.oneof(
    fc.json(),
    fc.string({ maxLength: 60 }),
    fc.constant('{"accountId":'),
    fc.constant('\u0000\u00ff'),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(`/api/v1/accounts/${accountId}`, '/api/v1/accounts/nope', '/api/v1/balance-refresh'),
      body,
      fc.constantFrom('application/json', 'text/plain', ''),
      async (p, b, type) => {
        const method = p.includes('balance') ? 'POST' : 'PUT';
        const res = await raw(t.sandbox.baseUrl, method, p, {
          headers: { authorization: `Bearer ${r.token}`, ...(type ? { 'content-type': type } : {}) },
          body: b,
        });
        expect(res.status, `${method} ${p} ${b} -> ${res.text.slice(0, 200)}`).toBeLessThan(500);
        if (res.status >= 400) expect(res.text.length).toBeGreaterThan(0);
      },
    ),
    { numRuns: 120 },
  );
  expect((await r.get('/api/v1/accounts/list')).status).toBe(200);
});

it('the update-consent page answers garbage with 4xx pages, never a redirect to an unchecked URI', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.tuple(
          fc.constantFrom('client_id', 'redirect_uri', 'credentials_id', 'authorization_code', 'market', 'state'),
          value,
        ),
        { maxLength: 6 },
      ),
      async (pairs) => {
        const q = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
        const res = await raw(t.sandbox.baseUrl, 'GET', `/link/1.0/transactions/update-consent?${q}`);
        expect(res.status).toBeLessThan(500);
        expect(res.status).not.toBe(302);
      },
    ),
    { numRuns: 80 },
  );
});
