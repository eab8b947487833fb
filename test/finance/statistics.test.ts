import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { raw, startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { addAccount, addTx } from './helpers.js';
import { categoryByCode } from '../../src/sandbox/categories.js';
import { STATISTIC_RESOLUTIONS } from '../../src/api/statistics.js';

let t: TestEnv;
let base: string;
let h: Record<string, string>;
let checkingId: string;
const cat = (code: string) => categoryByCode(code)!.id;
beforeAll(async () => {
  t = await startTestSandbox();
  base = t.sandbox.baseUrl;
  const u = await userWithToken(t.sandbox, ['statistics:read']);
  h = { authorization: `Bearer ${u.token}` };
  const s = t.sandbox.store;
  const a = addAccount(s, u.userId, { balance: '1000.00' });
  checkingId = a.id;
  addTx(s, a, '1000.00', '2026-03-01', { categoryId: cat('income:salary.other') });
  addTx(s, a, '-45.50', '2026-03-03', { categoryId: cat('expenses:food.coffee') });
  addTx(s, a, '-30.25', '2026-03-10', { categoryId: cat('expenses:food.coffee') });
  addTx(s, a, '5.00', '2026-03-15', { categoryId: cat('expenses:food.coffee') });
  addTx(s, a, '-200.00', '2026-03-05', { categoryId: cat('expenses:food.groceries') });
  addTx(s, a, '-300.00', '2026-03-26', { categoryId: cat('transfers:savings.other') });
  addTx(s, a, '-12.00', '2026-04-02', { categoryId: cat('expenses:food.coffee') });
  const savings = addAccount(s, u.userId, { type: 'SAVINGS', balance: '5000.00', accountNumber: '9999-1' });
  addTx(s, savings, '300.00', '2026-03-26', { categoryId: cat('transfers:savings.other') });
  // no transactions: only the balance groups see them
  addAccount(s, u.userId, { type: 'CREDIT_CARD', balance: '-250.40', accountNumber: '7777-1' });
  addAccount(s, u.userId, { type: 'MORTGAGE', balance: '-900000.00', accountNumber: '7777-2' });
  // left out of statistics by accountExclusion
  for (const ex of ['PFM_DATA', 'PFM_AND_SEARCH', 'AGGREGATION'] as const) {
    const x = addAccount(s, u.userId, { accountExclusion: ex, balance: '77777.00', accountNumber: `8888-${ex}` });
    addTx(s, x, '-999.00', '2026-03-04', { categoryId: cat('expenses:food.coffee') });
  }
});
afterAll(() => t.close());

const query = (json: unknown) => raw(base, 'POST', '/api/v1/statistics/query', { headers: h, json });
const exact = (s: { amount?: { value: { unscaledValue: string; scale: string } } }) =>
  s.amount && `${s.amount.value.unscaledValue}/${s.amount.value.scale}`;

describe('POST /api/v1/statistics/query (spec 2.7)', () => {
  test('every type answers 200 at each allowed resolution and 400 at every other', async () => {
    for (const [type, allowed] of Object.entries(STATISTIC_RESOLUTIONS)) {
      for (const resolution of ['YEARLY', 'MONTHLY', 'MONTHLY_ADJUSTED', 'WEEKLY', 'DAILY', 'ALL']) {
        const r = await query({ types: [type], resolution });
        if (allowed.includes(resolution)) {
          expect(r.status, `${type} ${resolution}`).toBe(200);
          expect(Array.isArray(r.json())).toBe(true);
        } else {
          expect(r.status, `${type} ${resolution}`).toBe(400);
          expect(r.text).toMatch(
            resolution === 'ALL' ? /unknown resolution/ : new RegExp(`not available for ${type.replace('/', '\\/')}`),
          );
        }
      }
    }
  });

  test('expenses by category: exact sums, refunds lower them, excluded accounts left out', async () => {
    const r = (await query({ types: ['expenses-by-category'], resolution: 'MONTHLY' })).json();
    const coffee = r.filter((s: { description: string }) => s.description === cat('expenses:food.coffee'));
    expect(coffee.map((s: { period: string; value: number }) => [s.period, s.value])).toEqual([
      ['2026-03', 70.75],
      ['2026-04', 12],
    ]);
    expect(exact(coffee[0])).toBe('7075/2');
    expect(coffee[0]).toMatchObject({
      type: 'expenses-by-category',
      resolution: 'MONTHLY',
      payload: 'expenses:food.coffee',
    });
    // transfers are not expenses
    expect(r.some((s: { description: string }) => s.description === cat('transfers:savings.other'))).toBe(false);
  });

  test('primary categories, counts, daily and weekly labels', async () => {
    const primary = (await query({ types: ['expenses-by-primary-category'], resolution: 'YEARLY' })).json();
    expect(primary).toEqual([
      expect.objectContaining({ description: cat('expenses:food'), period: '2026', value: 282.75 }),
    ]);
    const count = (
      await query({
        types: ['expenses-by-category/by-count'],
        resolution: 'MONTHLY',
        description: cat('expenses:food.coffee'),
        periods: ['2026-03'],
      })
    ).json();
    expect(count).toEqual([expect.objectContaining({ period: '2026-03', value: 3 })]);
    expect(count[0].amount).toBeUndefined();
    const weekly = (
      await query({ types: ['expenses-by-category'], resolution: 'WEEKLY', description: cat('expenses:food.coffee') })
    ).json();
    expect(weekly.map((s: { period: string }) => s.period)).toEqual(['2026:10', '2026:11', '2026:14']);
    const daily = (
      await query({ types: ['expenses-by-category'], resolution: 'DAILY', description: cat('expenses:food.groceries') })
    ).json();
    expect(daily.map((s: { period: string; value: number }) => [s.period, s.value])).toEqual([['2026-03-05', 200]]);
  });

  test('AND across properties, OR within one', async () => {
    const r = (
      await query({
        types: ['expenses-by-category', 'income-by-category'],
        resolution: 'MONTHLY',
        description: [cat('expenses:food.coffee'), cat('income:salary.other')],
        periods: ['2026-03'],
      })
    ).json();
    expect(
      r.map((s: { type: string; description: string; value: number }) => [s.type, s.description, s.value]).sort(),
    ).toEqual(
      [
        ['expenses-by-category', cat('expenses:food.coffee'), 70.75],
        ['income-by-category', cat('income:salary.other'), 1000],
      ].sort(),
    );
    // a year in periods holds its months
    expect(
      (await query({ types: ['income-and-expenses'], resolution: 'MONTHLY', periods: ['2026'] })).json().length,
    ).toBe(3);
  });

  test('income-and-expenses, balances, left to spend', async () => {
    const ie = (await query({ types: ['income-and-expenses'], resolution: 'MONTHLY', periods: ['2026-03'] })).json();
    expect(Object.fromEntries(ie.map((s: { description: string; value: number }) => [s.description, s.value]))).toEqual(
      { INCOME: 1000, EXPENSES: 270.75 },
    );
    const bal = (
      await query({ types: ['balances-by-account'], resolution: 'MONTHLY', description: checkingId })
    ).json();
    // today 1000.00; before April's -12.00 it was 1012.00 at the end of March
    expect(bal.find((s: { period: string }) => s.period === '2026-03').value).toBe(1012);
    expect(bal.find((s: { period: string }) => s.period === '2026-04').value).toBe(1000);
    // this month: the card and the mortgage have no transactions, so their balance is known from today
    const thisMonth = new Date(t.sandbox.clock.now()).toISOString().slice(0, 7);
    const groups = (
      await query({ types: ['balances-by-account-type-group'], resolution: 'MONTHLY', periods: [thisMonth] })
    ).json();
    expect(
      Object.fromEntries(groups.map((s: { description: string; value: number }) => [s.description, s.value])),
      // the service's groups: checking and credit card accounts together (the vendor's statistics reference)
    ).toEqual({ CARDS_AND_ACCOUNTS: 749.6, SAVINGS: 5000, LOANS: -900000 });
    const lts = (await query({ types: ['left-to-spend'], resolution: 'MONTHLY', periods: ['2026-03'] })).json();
    // 1 March +1000, 3 March -45.50, 5 March -200: left on the 5th is 754.50 (the transfer does not count)
    expect(lts.find((s: { description: string }) => s.description === '2026-03-05').value).toBe(754.5);
    expect(lts.find((s: { description: string }) => s.description === '2026-03-31').value).toBe(729.25);
    const avg = (await query({ types: ['left-to-spend-average'], resolution: 'MONTHLY', periods: ['2026-04'] })).json();
    // April's average over the months before (only March has data): day 5 of March
    expect(avg.find((s: { description: string }) => s.description === '2026-04-05').value).toBe(754.5);
  });

  test('padResultUntilToday fills sums with zero and balances with the last value up to this period', async () => {
    const thisMonth = new Date(t.sandbox.clock.now()).toISOString().slice(0, 7);
    const sums = (
      await query({
        types: ['expenses-by-category'],
        resolution: 'MONTHLY',
        description: cat('expenses:food.groceries'),
        padResultUntilToday: true,
      })
    ).json();
    expect(sums[0].period).toBe('2026-03');
    expect(sums.at(-1).period).toBe(thisMonth);
    expect(sums.slice(1).every((s: { value: number }) => s.value === 0)).toBe(true);
    const unpadded = (
      await query({
        types: ['expenses-by-category'],
        resolution: 'MONTHLY',
        description: cat('expenses:food.groceries'),
      })
    ).json();
    expect(unpadded).toHaveLength(1);
  });

  test('a type named twice in types is one series, not summed twice', async () => {
    const once = (await query({ types: ['income-and-expenses', 'expenses-by-category'], resolution: 'YEARLY' })).json();
    expect(once.length).toBeGreaterThan(0);
    const twice = await query({
      types: ['income-and-expenses', 'expenses-by-category', 'income-and-expenses', 'expenses-by-category'],
      resolution: 'YEARLY',
    });
    expect(twice.status).toBe(200);
    expect(twice.json()).toEqual(once);
  });

  test('400 plain strings for malformed queries', async () => {
    for (const [body, msg] of [
      [{ types: ['nope'], resolution: 'MONTHLY' }, /unknown statistics type/],
      [{ types: ['expenses-by-category'] }, /resolution is required/],
      [{ types: 'x'.repeat(5), resolution: 'MONTHLY' }, /unknown statistics type/],
      [{ types: [1], resolution: 'MONTHLY' }, /array of strings/],
      [{ types: ['expenses-by-category'], resolution: 'MONTHLY', periods: ['March'] }, /YYYY/],
      [{ types: ['expenses-by-category'], resolution: 'MONTHLY', padResultUntilToday: 'yes' }, /boolean/],
      ['[]', /JSON object/],
    ] as Array<[unknown, RegExp]>) {
      const r = await query(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.text).toMatch(msg);
    }
  });
});
