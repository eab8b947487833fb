import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { addAccount, addTx, userWithLocale } from './helpers.js';
import { categoryByCode } from '../../src/sandbox/categories.js';
import type { MemoryStore } from '../../src/sandbox/store.js';

let t: TestEnv;
let base: string;
const cat = (code: string) => categoryByCode(code)!.id;
let now: Date;
const iso = (d: Date) => d.toISOString().slice(0, 10);
const today = () => iso(now);
const daysAgo = (n: number) => iso(new Date(now.getTime() - n * 86_400_000));
const lastMonth = (dom: number) => iso(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, dom)));

function seed(store: MemoryStore, userId: string) {
  const a = addAccount(store, userId);
  const ids: Record<string, string> = {};
  ids.A = addTx(store, a, '-150.00', today(), {
    categoryId: cat('expenses:food.groceries'),
    description: 'ICA Maxi',
  }).id;
  ids.B = addTx(store, a, '-80.00', daysAgo(1), { categoryId: cat('expenses:food.groceries'), description: 'Lidl' }).id;
  ids.C = addTx(store, a, '-450.00', lastMonth(15), {
    categoryId: cat('expenses:food.restaurants'),
    description: 'Pizzeria Napoli',
    notes: '#birthday',
  }).id;
  ids.D = addTx(store, a, '-95.00', lastMonth(16), {
    categoryId: cat('expenses:food.restaurants'),
    description: 'Sushi Yama',
    notes: 'lunch #work',
  }).id;
  ids.E = addTx(store, a, '-52.00', today(), {
    categoryId: cat('expenses:food.coffee'),
    description: 'Espresso House',
  }).id;
  ids.F = addTx(store, a, '30000.00', lastMonth(25), {
    categoryId: cat('income:salary.other'),
    description: 'Salary ACME',
  }).id;
  const hidden = addAccount(store, userId, { accountExclusion: 'PFM_AND_SEARCH', accountNumber: '1-1' });
  ids.G = addTx(store, hidden, '-150.00', today(), {
    categoryId: cat('expenses:food.groceries'),
    description: 'ICA hidden',
  }).id;
  const pfm = addAccount(store, userId, { accountExclusion: 'PFM_DATA', accountNumber: '1-2' });
  ids.H = addTx(store, pfm, '-151.00', today(), { categoryId: cat('expenses:food.groceries'), description: 'Coop' }).id;
  return ids;
}

let en: { h: Record<string, string>; ids: Record<string, string> };
let sv: { h: Record<string, string>; ids: Record<string, string> };
beforeAll(async () => {
  t = await startTestSandbox();
  base = t.sandbox.baseUrl;
  now = new Date(t.sandbox.clock.now());
  const e = await userWithLocale(t.sandbox, ['transactions:read'], 'GB', 'en_US');
  en = { h: e.h, ids: seed(t.sandbox.store, e.userId) };
  const s = await userWithLocale(t.sandbox, ['transactions:read'], 'SE', 'sv_SE');
  sv = { h: s.h, ids: seed(t.sandbox.store, s.userId) };
});
afterAll(() => t.close());

async function search(u: typeof en, queryString: string, extra: Record<string, unknown> = {}) {
  const r = await raw(base, 'POST', '/api/v1/search', { headers: u.h, json: { queryString, ...extra } });
  expect(r.status, queryString).toBe(200);
  return r.json();
}
const names = (u: typeof en, j: { results: Array<{ transaction: { id: string } }> }) =>
  j.results
    .map((r) => Object.entries(u.ids).find(([, id]) => id === r.transaction.id)![0])
    .sort()
    .join('');

describe('POST /api/v1/search: the query language of spec 2.7', () => {
  test.each([
    ['groceries', 'ABH'],
    ['groceries over 100', 'AH'],
    ['groceries today', 'AH'],
    ['yesterday', 'B'],
    ['restaurants last month', 'CD'],
    ['#birthday', 'C'],
    ['#work', 'D'],
    ['#birthday #work', ''],
    ['around 50', 'E'],
    ['less than 100', 'BDE'],
    ['more than 1000', 'F'],
    ['espresso', 'E'],
    ['pizzeria #work', ''],
    ['food & drinks under 100', 'BDE'],
  ])('en_US "%s" -> %s (accounts excluded from search never appear)', async (q, expected) => {
    expect(names(en, await search(en, q))).toBe(expected);
  });

  test('weekdays, weekends, this week, week N', async () => {
    const all = ['A', 'B', 'C', 'D', 'E', 'F', 'H'];
    const dateOf = (k: string) => t.sandbox.store.transactions.get(en.ids[k]!)!.bookedDate;
    const isWeekend = (k: string) => [0, 6].includes(new Date(`${dateOf(k)}T00:00:00Z`).getUTCDay());
    expect(names(en, await search(en, 'weekends'))).toBe(all.filter(isWeekend).join(''));
    expect(names(en, await search(en, 'weekdays'))).toBe(all.filter((k) => !isWeekend(k)).join(''));
    // ISO week of today
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const monday = d.getTime() - ((d.getUTCDay() + 6) % 7) * 86_400_000;
    const thursday = new Date(monday + 3 * 86_400_000);
    const week = Math.floor((thursday.getTime() - Date.UTC(thursday.getUTCFullYear(), 0, 1)) / (7 * 86_400_000)) + 1;
    const inWeek = all.filter((k) => Date.parse(`${dateOf(k)}T00:00:00Z`) >= monday).join('');
    expect(names(en, await search(en, 'this week'))).toBe(inWeek);
    expect(names(en, await search(en, `week ${week}`))).toBe(inWeek);
    expect(names(sv, await search(sv, `vecka ${week}`))).toBe(inWeek);
  });

  test('sv_SE keywords and category names', async () => {
    expect(names(sv, await search(sv, 'livsmedel över 100 idag'))).toBe('AH');
    expect(names(sv, await search(sv, 'restaurang förra månaden'))).toBe('CD');
    expect(names(sv, await search(sv, 'mindre än 100'))).toBe('BDE');
    expect(names(sv, await search(sv, 'igår'))).toBe('B');
    expect(names(sv, await search(sv, 'runt 50 kr'))).toBe('E');
    // English keywords are only words for a Swedish user
    expect(names(sv, await search(sv, 'groceries'))).toBe('');
  });

  test('metrics, period amounts, limit and offset', async () => {
    const j = await search(en, 'restaurants last month');
    expect(j.count).toBe(2);
    expect(j.net).toBe(-545);
    expect(j.metrics).toEqual({
      COUNT: 2,
      NET: -545,
      SUM: 545,
      AVG: 272.5,
      CATEGORIES: { [cat('expenses:food.restaurants')]: 1 },
    });
    expect(j.periodAmounts).toEqual([{ key: lastMonth(1).slice(0, 7), value: -545 }]);
    expect(j.queryInterpretation).toMatchObject({
      categories: ['expenses:food.restaurants'],
      dateFrom: lastMonth(1),
      words: [],
    });
    const tx = j.results[0].transaction;
    expect(tx).toMatchObject({
      categoryType: 'EXPENSES',
      currencyDenominatedAmount: { unscaledValue: -9500, scale: 2, currencyCode: 'SEK' },
      amount: -95,
    });
    const page = await search(en, 'groceries', { limit: 1, offset: 1 });
    expect(page.count).toBe(3);
    expect(page.results).toHaveLength(1);
  });

  test('400 plain strings for a malformed search', async () => {
    for (const body of [
      { queryString: 5 },
      { queryString: 'x', limit: -1 },
      { queryString: 'x', limit: 1.5 },
      { queryString: 'x', sort: 'RANDOM' },
      { queryString: 'x', order: 'UP' },
      { accounts: 'a' },
      [1],
    ]) {
      const r = await raw(base, 'POST', '/api/v1/search', { headers: en.h, json: body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    }
    expect((await raw(base, 'POST', '/api/v1/search', { json: { queryString: 'x' } })).status).toBe(401);
  });
});
