// Property-based: every endpoint of the shared table, fed garbage of every kind (bad JSON, wrong
// types, missing fields, wrong content types, control characters, odd path parameters), answers
// with a 4xx (or a 2xx) and a body, never a 5xx, and the sandbox stays up.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENDPOINTS, ALL_SCOPES } from '../../src/contract/index.js';
import { clientToken, raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

async function userToken(): Promise<string> {
  const ct = await clientToken(t.sandbox, ['user:create', 'authorization:grant']);
  const u = await raw(t.sandbox.baseUrl, 'POST', '/api/v1/user/create', {
    headers: { authorization: `Bearer ${ct}` },
    json: { market: 'SE' },
  });
  const code = (
    await raw(t.sandbox.baseUrl, 'POST', '/api/v1/oauth/authorization-grant', {
      headers: { authorization: `Bearer ${ct}` },
      form: { user_id: u.json().user_id, scope: ALL_SCOPES.join(',') },
    })
  ).json().code;
  const tok = await raw(t.sandbox.baseUrl, 'POST', '/api/v1/oauth/token', {
    form: {
      client_id: t.sandbox.clientId,
      client_secret: t.sandbox.clientSecret,
      grant_type: 'authorization_code',
      code,
    },
  });
  return tok.json().access_token;
}

const contentTypes = fc.constantFrom(
  'application/json',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/octet-stream',
  'application/json; charset=latin1',
  '',
  'multipart/form-data; boundary=x',
);
const weirdString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u001b[31m',
    '%',
    '..',
    '../../etc/passwd',
    'null',
    '-1',
    '1e999',
    'NaN',
    '🏦',
    'a'.repeat(5000),
  ),
);
const body = fc.oneof(
  fc.json().map((s) => Buffer.from(s)),
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v))),
  fc
    .record({
      market: weirdString,
      locale: weirdString,
      providerName: weirdString,
      fields: fc.dictionary(weirdString, weirdString),
      accountId: weirdString,
      amount: fc.oneof(fc.double(), weirdString),
    })
    .map((v) => Buffer.from(JSON.stringify(v))),
  fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
  weirdString.map((s) => Buffer.from(s)),
  fc.constant(Buffer.alloc(0)),
);
const param = fc.oneof(
  weirdString.filter((s) => s.length > 0 && !s.includes('/') && !s.includes('?') && !s.includes('#')),
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 }),
);
const query = fc.dictionary(
  fc.constantFrom(
    'pageSize',
    'pageToken',
    'accountIdIn',
    'statusIn',
    'bookedDateGte',
    'bookedDateLte',
    'items',
    'optIn',
    'market',
    'includeTestProviders',
    'locale',
    'start',
    'end',
    'period_gte',
    'period_lte',
    'template',
    'includeArchived',
    'portfolioType',
    'event',
    'status',
    'endpoint',
    'x',
  ),
  weirdString,
  { maxKeys: 4 },
);

describe('hostile input on every endpoint', () => {
  test('no 5xx, always a body with a 4xx, and the sandbox stays up', async () => {
    const failures: string[] = [];
    for (const ep of ENDPOINTS) {
      const utoken = await userToken();
      const ctoken = await clientToken(t.sandbox, ALL_SCOPES);
      const auth =
        ep.token === 'connector'
          ? `Token ${t.sandbox.connectorToken}`
          : ep.token === 'client'
            ? `Bearer ${ctoken}`
            : ep.token === 'none'
              ? undefined
              : `Bearer ${utoken}`;
      await fc.assert(
        fc.asyncProperty(
          body,
          contentTypes,
          fc.array(param, { minLength: 3, maxLength: 3 }),
          query,
          async (b, ct, params, q) => {
            let i = 0;
            const path = ep.path.replace(/\{\w+\}/g, () => encodeURIComponent(params[i++]!));
            const qs = new URLSearchParams(q).toString();
            const headers: Record<string, string> = {};
            if (auth) headers.authorization = auth;
            if (ct) headers['content-type'] = ct;
            const r = await raw(t.sandbox.baseUrl, ep.method, `${path}${qs ? `?${qs}` : ''}`, {
              headers,
              body: ep.method === 'GET' || ep.method === 'DELETE' ? undefined : b,
            });
            if (r.status >= 500) failures.push(`${ep.method} ${path} (${ct}) -> ${r.status} ${r.text.slice(0, 200)}`);
            if (
              r.status >= 400 &&
              r.text.length === 0 &&
              !(ep.path.includes('budgets') || ep.path.includes('insights'))
            )
              failures.push(`${ep.method} ${path} -> ${r.status} with an empty body`);
            return true;
          },
        ),
        { numRuns: 40, seed: 4242 },
      );
    }
    const up = await raw(t.sandbox.baseUrl, 'GET', '/version');
    expect(up.status).toBe(200);
    expect(failures.slice(0, 20)).toEqual([]);
  }, 180_000);
});
