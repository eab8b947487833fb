import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { raw, startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { addAccount, addTx } from './helpers.js';
import { categoryByCode } from '../../src/sandbox/categories.js';
import { generateDemoData } from '../../src/sandbox/demo-data.js';
import { addDecimals, decimalString } from '../../src/output/money.js';

let t: TestEnv;
let base: string;
const SCOPES = ['budgets:read', 'budgets:write'];
const cat = (code: string) => categoryByCode(code)!.id;
const ms = (d: string) => Date.parse(`${d}T00:00:00Z`);
beforeAll(async () => {
  t = await startTestSandbox();
  base = t.sandbox.baseUrl;
});
afterAll(() => t.close());

async function userWithData() {
  const u = await userWithToken(t.sandbox, SCOPES);
  const s = t.sandbox.store;
  const a = addAccount(s, u.userId);
  addTx(s, a, '-45.50', '2026-03-03', { categoryId: cat('expenses:food.coffee'), description: 'Espresso House' });
  addTx(s, a, '-30.25', '2026-03-10', {
    categoryId: cat('expenses:food.coffee'),
    description: 'Pressbyrån',
    notes: 'meeting #work',
  });
  addTx(s, a, '5.00', '2026-03-15', { categoryId: cat('expenses:food.coffee'), description: 'Espresso House refund' });
  addTx(s, a, '-200.00', '2026-03-05', { categoryId: cat('expenses:food.groceries'), description: 'ICA' });
  addTx(s, a, '-12.00', '2026-04-02', { categoryId: cat('expenses:food.coffee'), description: 'Espresso House' });
  addTx(s, a, '1000.00', '2026-03-25', { categoryId: cat('income:salary.other'), description: 'Salary' });
  // an account left out of personal finance features: its coffee never counts
  const hidden = addAccount(s, u.userId, { accountExclusion: 'PFM_DATA', accountNumber: '1111-2222222' });
  addTx(s, hidden, '-999.00', '2026-03-04', { categoryId: cat('expenses:food.coffee'), description: 'Espresso House' });
  return { ...u, h: { authorization: `Bearer ${u.token}` }, account: a };
}

const coffee = {
  name: 'Coffee',
  amount: { unscaledValue: 10000, scale: 2, currencyCode: 'SEK' },
  filter: { categories: [{ code: 'expenses:food.coffee' }] },
  recurringPeriodicity: { periodUnit: 'MONTH' },
};

describe('budgets (spec 4.2)', () => {
  test('an unscaledValue beyond 2^53 as a JSON number: 400 saying to send it as a string, which is taken', async () => {
    const u = await userWithData();
    const big = (v: string) =>
      `{"name":"Big","amount":{"unscaledValue":${v},"scale":2,"currencyCode":"SEK"},"filter":{},"recurringPeriodicity":{"periodUnit":"MONTH"}}`;
    const asNumber = await raw(base, 'POST', '/api/v1/budgets/recurring', {
      headers: { ...u.h, 'content-type': 'application/json' },
      body: big('9007199254740993'),
    });
    expect(asNumber.status).toBe(400);
    expect(asNumber.text).toMatch(/beyond 9007199254740991 must be sent as a decimal string/);
    const asString = await raw(base, 'POST', '/api/v1/budgets/recurring', {
      headers: { ...u.h, 'content-type': 'application/json' },
      body: big('"9007199254740993"'),
    });
    expect(asString.status, asString.text).toBe(200);
    expect(asString.text).toContain('9007199254740993');
  });

  test('create recurring, details over whole periods: spent, total and average exact', async () => {
    const u = await userWithData();
    const c = await raw(base, 'POST', '/api/v1/budgets/recurring', { headers: u.h, json: coffee });
    expect(c.status).toBe(200);
    const b = c.json().budgetSpecification;
    expect(b).toMatchObject({
      name: 'Coffee',
      periodicityType: 'RECURRING',
      archived: false,
      amount: { unscaledValue: 10000, scale: 2, currencyCode: 'SEK' },
    });
    // a date in the middle of a period includes the whole period
    const d = await raw(
      base,
      'GET',
      `/api/v1/budgets/${b.id}/details?start=${ms('2026-03-20')}&end=${ms('2026-04-01')}`,
      { headers: u.h },
    );
    expect(d.status).toBe(200);
    const j = d.json();
    expect(j.budgetPeriods.map((p: { start: number }) => new Date(p.start).toISOString().slice(0, 10))).toEqual([
      '2026-03-01',
      '2026-04-01',
    ]);
    expect(j.budgetPeriods[0].end).toBe(ms('2026-04-01') - 1);
    // March: 45.50 + 30.25 - 5.00 refund = 70.75 (the excluded account's 999 is not there); April 12.00
    expect(j.budgetPeriods.map((p: { spentAmount: { unscaledValue: number } }) => p.spentAmount.unscaledValue)).toEqual(
      [7075, 1200],
    );
    expect(j.totalSpentAmount).toEqual({ unscaledValue: 8275, scale: 2, currencyCode: 'SEK' });
    // 82.75 / 2 = 41.375, rounded half-even to 41.38
    expect(j.averageSpentAmount).toEqual({ unscaledValue: 4138, scale: 2, currencyCode: 'SEK' });
    expect(j.start).toBe(ms('2026-03-01'));
    expect(j.end).toBe(ms('2026-05-01') - 1);
  });

  test('one-off with a tag filter; weekly periods; transactions of a budget', async () => {
    const u = await userWithData();
    const oneOff = await raw(base, 'POST', '/api/v1/budgets/one-off', {
      headers: u.h,
      json: {
        name: 'Work coffee',
        amount: { unscaledValue: 5000, scale: 2, currencyCode: 'SEK' },
        filter: { tags: [{ key: 'work' }] },
        oneOffPeriodicity: { start: ms('2026-03-01'), end: ms('2026-03-31') },
      },
    });
    expect(oneOff.status).toBe(200);
    const id = oneOff.json().budgetSpecification.id;
    const d = (await raw(base, 'GET', `/api/v1/budgets/${id}/details`, { headers: u.h })).json();
    expect(d.budgetPeriods).toHaveLength(1);
    expect(d.totalSpentAmount.unscaledValue).toBe(3025);
    const tx = await raw(
      base,
      'GET',
      `/api/v1/budgets/${id}/transactions?start=${ms('2026-03-01')}&end=${ms('2026-03-31')}`,
      { headers: u.h },
    );
    expect(tx.status).toBe(200);
    expect(tx.json().transactions).toEqual([
      expect.objectContaining({
        amount: { unscaledValue: -3025, scale: 2, currencyCode: 'SEK' },
        description: 'Pressbyrån',
        categoryCode: 'expenses:food.coffee',
        date: ms('2026-03-10'),
        accountId: u.account.id,
        pending: false,
      }),
    ]);

    const weekly = (
      await raw(base, 'POST', '/api/v1/budgets/recurring', {
        headers: u.h,
        json: { ...coffee, recurringPeriodicity: { periodUnit: 'WEEK' } },
      })
    ).json().budgetSpecification;
    const w = (
      await raw(base, 'GET', `/api/v1/budgets/${weekly.id}/details?start=${ms('2026-03-02')}&end=${ms('2026-03-15')}`, {
        headers: u.h,
      })
    ).json();
    // ISO weeks: Mon 2 March to Sun 8 March (45.50), Mon 9 March to Sun 15 March (30.25 - 5.00)
    expect(w.budgetPeriods.map((p: { spentAmount: { unscaledValue: number } }) => p.spentAmount.unscaledValue)).toEqual(
      [4550, 2525],
    );
  });

  test('summaries: the current period of each budget', async () => {
    const u = await userWithData();
    const today = new Date(t.sandbox.clock.now()).toISOString().slice(0, 10);
    addTx(t.sandbox.store, u.account, '-19.90', today, { categoryId: cat('expenses:food.coffee') });
    addTx(t.sandbox.store, u.account, '-20.10', today, { categoryId: cat('expenses:food.coffee') });
    await raw(base, 'POST', '/api/v1/budgets/recurring', { headers: u.h, json: coffee });
    const s = await raw(base, 'GET', '/api/v1/budgets/summaries', { headers: u.h });
    expect(s.status).toBe(200);
    const [sum] = s.json().budgetSummaries;
    expect(sum.budgetSpecification.name).toBe('Coffee');
    // the vendor reference's BudgetSummary names the current period budgetPeriod
    expect(sum.budgetPeriod.spentAmount).toEqual({ unscaledValue: 4000, scale: 2, currencyCode: 'SEK' });
    expect(sum.budgetPeriod.start).toBe(ms(`${today.slice(0, 7)}-01`));
    expect(sum.budgetPeriods).toBeUndefined();
    // and its Budgets model has the creation time (epoch ms)
    const created = sum.budgetSpecification.created as number;
    expect(created).toBeLessThanOrEqual(t.sandbox.clock.now());
    expect(created).toBeGreaterThan(t.sandbox.clock.now() - 60_000);
  });

  test('update, archive (listed only with includeArchived), delete; 404 for unknown and foreign ids', async () => {
    const u = await userWithData();
    const b = (await raw(base, 'POST', '/api/v1/budgets/recurring', { headers: u.h, json: coffee })).json()
      .budgetSpecification;
    const up = await raw(base, 'PUT', `/api/v1/budgets/${b.id}`, {
      headers: u.h,
      json: { ...coffee, name: 'Fika', amount: { unscaledValue: '123456789012345678', scale: 2, currencyCode: 'SEK' } },
    });
    expect(up.status).toBe(200);
    // beyond a double: the int64 is kept exact (as a string when it does not fit a JSON number exactly)
    expect(up.json().budgetSpecification).toMatchObject({
      name: 'Fika',
      amount: { unscaledValue: '123456789012345678', scale: 2 },
    });
    const wrongKind = await raw(base, 'PUT', `/api/v1/budgets/${b.id}`, {
      headers: u.h,
      json: { ...coffee, oneOffPeriodicity: { start: 1, end: 2 } },
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.text).toMatch(/RECURRING/);

    const ar = await raw(base, 'PUT', `/api/v1/budgets/${b.id}/archive`, { headers: u.h });
    expect(ar.status).toBe(200);
    expect(ar.json().budgetSpecification.archived).toBe(true);
    expect((await raw(base, 'PUT', `/api/v1/budgets/${b.id}/archive`, { headers: u.h })).status).toBe(400);
    expect((await raw(base, 'GET', '/api/v1/budgets', { headers: u.h })).json().budgetSpecifications).toEqual([]);
    expect(
      (await raw(base, 'GET', '/api/v1/budgets?includeArchived=true', { headers: u.h }))
        .json()
        .budgetSpecifications.map((x: { id: string }) => x.id),
    ).toEqual([b.id]);
    expect((await raw(base, 'GET', '/api/v1/budgets/summaries', { headers: u.h })).json().budgetSummaries).toEqual([]);
    expect(
      (await raw(base, 'GET', '/api/v1/budgets/summaries?includeArchived=true', { headers: u.h })).json()
        .budgetSummaries,
    ).toHaveLength(1);

    const other = await userWithData();
    for (const [method, path] of [
      ['PUT', `/api/v1/budgets/${b.id}`],
      ['DELETE', `/api/v1/budgets/${b.id}`],
      ['PUT', `/api/v1/budgets/${b.id}/archive`],
      ['GET', `/api/v1/budgets/${b.id}/details`],
      ['GET', `/api/v1/budgets/${b.id}/transactions?start=0&end=1`],
    ] as const) {
      const r = await raw(base, method, path, { headers: other.h, json: method === 'PUT' ? coffee : undefined });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.headers.get('content-type'), `${method} ${path}`).toMatch(/^text\/plain/);
    }
    expect((await raw(base, 'DELETE', `/api/v1/budgets/${b.id}`, { headers: u.h })).status).toBe(204);
    expect((await raw(base, 'DELETE', `/api/v1/budgets/${b.id}`, { headers: u.h })).status).toBe(404);
  });

  test('400 with plain-string bodies for what the service cannot take', async () => {
    const u = await userWithData();
    const cases: Array<[string, unknown, RegExp]> = [
      [
        '/api/v1/budgets/recurring',
        { ...coffee, amount: { unscaledValue: 100, scale: 2, currencyCode: 'EUR' } },
        /does not match the user's currency SEK/,
      ],
      [
        '/api/v1/budgets/recurring',
        { ...coffee, amount: { unscaledValue: -100, scale: 2, currencyCode: 'SEK' } },
        /greater than zero/,
      ],
      [
        '/api/v1/budgets/recurring',
        { ...coffee, amount: { unscaledValue: 1.5, scale: 2, currencyCode: 'SEK' } },
        /integer/,
      ],
      [
        '/api/v1/budgets/recurring',
        { ...coffee, filter: { categories: [{ code: 'income:salary' }] } },
        /not an expense category/,
      ],
      ['/api/v1/budgets/recurring', { ...coffee, filter: { accounts: [{ id: 'nope' }] } }, /unknown account/],
      ['/api/v1/budgets/recurring', { ...coffee, recurringPeriodicity: { periodUnit: 'DAY' } }, /WEEK, MONTH, YEAR/],
      ['/api/v1/budgets/recurring', { ...coffee, name: '' }, /name is required/],
      ['/api/v1/budgets/recurring', [1, 2], /JSON object/],
      ['/api/v1/budgets/one-off', { ...coffee, oneOffPeriodicity: { start: 10, end: 5 } }, /start is after/],
      ['/api/v1/budgets/one-off', { ...coffee, oneOffPeriodicity: undefined }, /oneOffPeriodicity is required/],
    ];
    for (const [path, body, msg] of cases) {
      const r = await raw(base, 'POST', path, { headers: u.h, json: body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(r.text, JSON.stringify(body)).toMatch(msg);
    }
    const malformed = await raw(base, 'POST', '/api/v1/budgets/recurring', {
      headers: { ...u.h, 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('content-type')).toMatch(/^text\/plain/);
    const b = (await raw(base, 'POST', '/api/v1/budgets/recurring', { headers: u.h, json: coffee })).json()
      .budgetSpecification;
    expect((await raw(base, 'GET', `/api/v1/budgets/${b.id}/transactions?start=1`, { headers: u.h })).text).toMatch(
      /end is required/,
    );
    expect((await raw(base, 'GET', `/api/v1/budgets/${b.id}/details?start=abc`, { headers: u.h })).status).toBe(400);
    // beyond year 9999 there are no periods: 400, not a crash
    expect(
      (await raw(base, 'GET', `/api/v1/budgets/${b.id}/details?start=1&end=8640000000000000`, { headers: u.h })).status,
    ).toBe(400);
    // more than 1000 periods in one answer
    const weekly = (
      await raw(base, 'POST', '/api/v1/budgets/recurring', {
        headers: u.h,
        json: { ...coffee, recurringPeriodicity: { periodUnit: 'WEEK' } },
      })
    ).json().budgetSpecification;
    expect(
      (await raw(base, 'GET', `/api/v1/budgets/${weekly.id}/details?start=0&end=${ms('2026-01-01')}`, { headers: u.h }))
        .text,
    ).toMatch(/more than 1000 periods/);
    expect(
      (
        await raw(base, 'GET', `/api/v1/budgets/${b.id}/details?start=${ms('2026-05-01')}&end=${ms('2026-01-01')}`, {
          headers: u.h,
        })
      ).status,
    ).toBe(400);
    expect((await raw(base, 'GET', '/api/v1/budgets?includeArchived=maybe', { headers: u.h })).status).toBe(400);
    // 401 without a token, 403 with a read-only token on a write
    expect((await raw(base, 'GET', '/api/v1/budgets')).status).toBe(401);
    const ro = await userWithToken(t.sandbox, ['budgets:read']);
    expect(
      (
        await raw(base, 'POST', '/api/v1/budgets/recurring', {
          headers: { authorization: `Bearer ${ro.token}` },
          json: coffee,
        })
      ).status,
    ).toBe(403);
  });

  test('recommended: per primary category, the average of the last three complete months rounded up to a hundred', async () => {
    const u = await userWithToken(t.sandbox, SCOPES);
    const now = t.sandbox.clock.now();
    generateDemoData(t.sandbox.store, {
      userId: u.userId,
      credentialsIds: ['c'.repeat(32)],
      providerName: 'se-test',
      currencyCode: 'SEK',
      seed: u.userId,
      now,
      months: 6,
    });
    const r = await raw(base, 'GET', '/api/v1/budgets/recommended', {
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(r.status).toBe(200);
    // the vendor reference's ListRecommendedBudgetResponse
    const recs = r.json().recommendedBudgets;
    const food = recs.find(
      (x: { filter: { categories: Array<{ code: string }> } }) => x.filter.categories[0]!.code === 'expenses:food',
    );
    // recompute from the store: food expenses of the three complete months before this one
    const d = new Date(now);
    const months = [1, 2, 3].map((k) =>
      new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - k, 1)).toISOString().slice(0, 7),
    );
    const foodIds = new Set(
      ['groceries', 'restaurants', 'coffee', 'alcohol-tobacco'].map((x) => cat(`expenses:food.${x}`)),
    );
    const amounts = [...t.sandbox.store.transactions.values()]
      .filter((x) => x.userId === u.userId && foodIds.has(x.categoryId) && months.includes(x.bookedDate.slice(0, 7)))
      .map((x) => x.amount.replace(/^-/, ''));
    const total = BigInt(addDecimals(amounts).replace('.', ''));
    const avg = (total * 2n + 3n) / 6n; // half-up is enough to compare with half-even here unless exactly .5
    expect(BigInt(food.averageSpentAmount.unscaledValue) - avg).toBeLessThanOrEqual(1n);
    const hundreds = (BigInt(food.averageSpentAmount.unscaledValue) + 9999n) / 10000n;
    expect(decimalString(String(food.amount.unscaledValue), food.amount.scale)).toBe(`${hundreds * 100n}.00`);
    expect(food.recurringPeriodicity).toEqual({ periodUnit: 'MONTH' });
    expect(food.basedOnPeriods).toEqual([...months].reverse());
  });
});
