// Property-based: the credentials, providers and consents endpoints fed garbage (bad JSON, wrong
// types, odd path parameters and query values) answer a 4xx or 2xx with a body, never a 5xx.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ENDPOINTS, ALL_SCOPES } from '../../src/contract/index.js';
import { raw, startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox({ authDelayMs: 5 });
});
afterAll(() => t.close());

// the test bench's /sandbox/* controls too (issue 17), with the sandbox's connector token; the reset last
const BENCH = ENDPOINTS.filter((e) => e.id.startsWith('bench.') && e.token === 'connector').sort(
  (a, b) => Number(a.path === '/sandbox/reset') - Number(b.path === '/sandbox/reset'),
);
const MINE = [
  ...ENDPOINTS.filter((e) => /\/api\/v1\/(credentials|providers|provider-consents)/.test(e.path)),
  ...BENCH,
];

const text = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '',
    '\u0000',
    '\u001b[31m',
    '%',
    '..',
    'null',
    'true',
    '-1',
    '🏦',
    'a'.repeat(3000),
    'se-test-other-password',
    'test-user',
    '000000',
  ),
);
const jsonish = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      providerName: fc.oneof(text, fc.constant('se-test-other-password'), fc.integer()),
      fields: fc.oneof(fc.dictionary(text, fc.oneof(text, fc.integer())), text, fc.constant(null)),
      triggerRefresh: fc.oneof(fc.boolean(), text),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      information: fc.oneof(
        fc.dictionary(text, fc.oneof(text, fc.integer(), fc.constant(null))),
        text,
        fc.constant([]),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    { state: fc.oneof(text, fc.integer()), parameters: fc.oneof(fc.dictionary(text, text), text) },
    { requiredKeys: [] },
  ),
  // the bench's bodies: a status, a clock move, new transactions, a fixtures document
  fc.record(
    {
      status: fc.oneof(text, fc.constantFrom('SESSION_EXPIRED', 'AWAITING_SUPPLEMENTAL_INFORMATION', 'UPDATED')),
      advanceMs: fc.oneof(fc.integer(), text, fc.double()),
      time: fc.oneof(text, fc.integer()),
      userId: text,
      accountId: text,
      count: fc.oneof(fc.integer(), text),
      transactions: fc.oneof(fc.array(fc.dictionary(text, fc.oneof(text, fc.integer()))), text),
      users: fc.oneof(fc.array(fc.dictionary(text, fc.jsonValue())), text),
      webhooks: fc.oneof(fc.array(fc.dictionary(text, fc.jsonValue())), text),
    },
    { requiredKeys: [] },
  ),
);
const body = fc.oneof(
  jsonish.map((v) => JSON.stringify(v)),
  text,
  fc.constant('{"a":'),
);
const query = fc.dictionary(
  fc.constantFrom(
    'items',
    'optIn',
    'authenticate',
    'market',
    'includeTestProviders',
    'excludeNonTestProviders',
    'capability',
    'name',
    'status',
    'since',
    'after',
    'limit',
    'path',
  ),
  text,
  { maxKeys: 3 },
);

test('no 5xx and always a body on a 4xx, on every credentials and providers endpoint', async () => {
  const u = await userWithToken(t.sandbox, ALL_SCOPES);
  const real = (
    await raw(t.sandbox.baseUrl, 'POST', '/api/v1/credentials', {
      headers: { authorization: `Bearer ${u.token}` },
      json: { providerName: 'se-test-other-multi-supplemental', fields: { username: 'test-user' } },
    })
  ).json().id as string;
  const failures: string[] = [];
  for (const ep of MINE) {
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.oneof(
          text.filter((s) => s.length > 0 && !/[/?#]/.test(s)),
          fc.constant(real),
        ),
        query,
        fc.constantFrom('application/json', 'text/plain', ''),
        async (b, id, q, ct) => {
          const path = ep.path.replace(/\{\w+\}/g, () => encodeURIComponent(id));
          const qs = new URLSearchParams(q).toString();
          const headers: Record<string, string> = {
            authorization: BENCH.includes(ep) ? `Token ${t.sandbox.connectorToken}` : `Bearer ${u.token}`,
          };
          if (ct) headers['content-type'] = ct;
          const r = await raw(t.sandbox.baseUrl, ep.method, `${path}${qs ? `?${qs}` : ''}`, {
            headers,
            body: ep.method === 'GET' || ep.method === 'DELETE' ? undefined : b,
          });
          if (r.status >= 500)
            failures.push(`${ep.method} ${path}?${qs} ${b.slice(0, 80)} -> ${r.status} ${r.text.slice(0, 200)}`);
          if (r.status >= 400 && r.text.length === 0)
            failures.push(`${ep.method} ${path} -> ${r.status} with an empty body`);
          return true;
        },
      ),
      { numRuns: 60, seed: 77 },
    );
  }
  expect(failures.slice(0, 10)).toEqual([]);
  expect((await raw(t.sandbox.baseUrl, 'GET', '/version')).status).toBe(200);
}, 60_000);
