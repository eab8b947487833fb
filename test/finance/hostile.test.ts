// Every finance endpoint, fed garbage by a user who has months of data: a 4xx with a body (or a
// 2xx), never a 5xx, and the sandbox stays up.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { raw, startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { ALL_SCOPES, ENDPOINTS } from '../../src/contract/index.js';
import { generateDemoData } from '../../src/sandbox/demo-data.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const MINE = /budgets|insights|statistics|calendar|search|transfer|account-verification-reports/;
const weird = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1e999',
    'NaN',
    '9999999999999999999',
    '253402300800000',
    '2024-02-30',
    '0000',
    '9999-12-31',
    '2024:53',
    'MONTHLY',
    'WEEK',
    '🏦',
    '\u0000',
    'a'.repeat(3000),
  ),
);
const value = fc.oneof(
  weird,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(weird, { maxLength: 3 }),
  fc.dictionary(weird, weird, { maxKeys: 2 }),
);
const body = fc.oneof(
  fc
    .record(
      {
        name: value,
        amount: fc.oneof(
          value,
          fc.record({ unscaledValue: value, scale: value, currencyCode: fc.constantFrom('SEK', 'EUR', 'x') }),
        ),
        filter: fc.oneof(value, fc.record({ categories: value, accounts: value, tags: value, freeTextQuery: value })),
        recurringPeriodicity: fc.oneof(value, fc.record({ periodUnit: value })),
        oneOffPeriodicity: fc.oneof(value, fc.record({ start: value, end: value })),
        types: value,
        resolution: fc.oneof(value, fc.constantFrom('DAILY', 'WEEKLY', 'MONTHLY', 'MONTHLY_ADJUSTED', 'YEARLY')),
        description: value,
        periods: value,
        padResultUntilToday: value,
        queryString: value,
        limit: value,
        offset: value,
        sort: value,
        order: value,
        startDate: value,
        endDate: value,
        accounts: value,
        insightId: value,
        insightAction: value,
        sourceUri: value,
        destinationUri: value,
        currency: value,
        destinationMessage: value,
        dueDate: value,
        accountIds: value,
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
  fc.json(),
  fc.string(),
);
const query = fc.dictionary(
  fc.constantFrom('start', 'end', 'includeArchived', 'period_gte', 'period_lte', 'template', 'resolution'),
  weird,
  { maxKeys: 3 },
);

test('no 5xx from the finance endpoints, whatever arrives', async () => {
  const u = await userWithToken(t.sandbox, ALL_SCOPES);
  generateDemoData(t.sandbox.store, {
    userId: u.userId,
    credentialsIds: ['c'.repeat(32)],
    providerName: 'se-test',
    currencyCode: 'SEK',
    seed: u.userId,
    now: t.sandbox.clock.now(),
    months: 3,
  });
  const failures: string[] = [];
  for (const ep of ENDPOINTS.filter((e) => MINE.test(e.path))) {
    await fc.assert(
      fc.asyncProperty(
        body,
        query,
        weird.filter((s) => s.length > 0 && !/[/?#]/.test(s)),
        async (b, q, p) => {
          const path = ep.path.replace(/\{\w+\}/g, () => encodeURIComponent(p));
          const qs = new URLSearchParams(q).toString();
          const r = await raw(t.sandbox.baseUrl, ep.method, `${path}${qs ? `?${qs}` : ''}`, {
            headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
            body: ep.method === 'GET' || ep.method === 'DELETE' ? undefined : b,
          });
          if (r.status >= 500)
            failures.push(`${ep.method} ${path}?${qs} ${b.slice(0, 300)} -> ${r.status} ${r.text.slice(0, 200)}`);
          return true;
        },
      ),
      { numRuns: 30, seed: 7 },
    );
  }
  expect(failures.slice(0, 10)).toEqual([]);
  expect((await raw(t.sandbox.baseUrl, 'GET', '/version')).status).toBe(200);
}, 60_000);
