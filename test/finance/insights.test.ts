import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { addAccount, addTx, userWithLocale } from './helpers.js';
import { generateDemoDataDetailed } from '../../src/sandbox/demo-data.js';
import { categoryByCode } from '../../src/sandbox/categories.js';

let t: TestEnv;
let base: string;
const SCOPES = ['insights:read', 'insights:write'];
const cat = (code: string) => categoryByCode(code)!.id;
beforeAll(async () => {
  t = await startTestSandbox();
  base = t.sandbox.baseUrl;
});
afterAll(() => t.close());

async function demoUser(locale: string, market = 'SE') {
  const u = await userWithLocale(t.sandbox, SCOPES, market, locale);
  const d = generateDemoDataDetailed(t.sandbox.store, {
    userId: u.userId,
    credentialsIds: ['c'.repeat(32)],
    providerName: 'se-test',
    currencyCode: 'SEK',
    seed: u.userId,
    now: t.sandbox.clock.now(),
    months: 5,
  });
  return { ...u, d };
}
/** One transaction of this category on the 10th of each of the last four months, oldest first. */
function monthly(a: Parameters<typeof addTx>[1], category: string, amounts: string[]): void {
  const now = new Date(t.sandbox.clock.now());
  amounts.forEach((amount, i) => {
    const back = amounts.length - i;
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 10)).toISOString().slice(0, 10);
    addTx(t.sandbox.store, a, amount, date, { categoryId: cat(category) });
  });
}
const day = (offset: number) => new Date(t.sandbox.clock.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('insights generated from the data (spec 4.5)', () => {
  test("the demo data's large expense, double charge and low balance each become an insight, with the data behind them", async () => {
    const u = await demoUser('en_US');
    const r = await raw(base, 'GET', '/api/v1/insights', { headers: u.h });
    expect(r.status).toBe(200);
    const list = r.json();
    const by = (type: string) => list.filter((i: { type: string }) => i.type === type);
    const large = by('LARGE_EXPENSE');
    expect(large.map((i: { data: { transactionId: string } }) => i.data.transactionId)).toEqual([
      u.d.highlights.largeExpenseId,
    ]);
    const largeTx = t.sandbox.store.transactions.get(u.d.highlights.largeExpenseId!)!;
    expect(large[0].title).toBe(`A large expense of ${largeTx.amount.slice(1)} SEK`);
    expect(by('DOUBLE_CHARGE')[0].data.transactionIds).toEqual(u.d.highlights.doubleChargeIds);
    const low = by('ACCOUNT_BALANCE_LOW')[0];
    expect(low.data.date).toBe(Date.parse(`${u.d.highlights.lowBalance!.date}T00:00:00Z`));
    expect(low.description).toContain(`${u.d.highlights.lowBalance!.balance} SEK`);
    for (const type of ['LEFT_TO_SPEND', 'WEEKLY_SUMMARY_EXPENSES_BY_CATEGORY', 'MONTHLY_SUMMARY_EXPENSES_BY_CATEGORY'])
      expect(by(type), type).toHaveLength(1);
    for (const i of list) {
      expect(i).toMatchObject({ userId: u.userId, createdTime: expect.any(Number) });
      expect(i.insightActions.length).toBeGreaterThan(0);
    }
    // ids are stable from one listing to the next
    expect(
      (await raw(base, 'GET', '/api/v1/insights', { headers: u.h })).json().map((i: { id: string }) => i.id),
    ).toEqual(list.map((i: { id: string }) => i.id));
  });

  test('locale: Swedish titles for sv_SE; a locale without configuration gets none', async () => {
    const sv = await demoUser('sv_SE');
    const large = (await raw(base, 'GET', '/api/v1/insights', { headers: sv.h }))
      .json()
      .find((i: { type: string }) => i.type === 'LARGE_EXPENSE');
    expect(large.title).toMatch(/^Ett stort köp på \d+,\d\d SEK$/);
    expect(large.insightActions[0].label).toBe('Uppfattat');
    const de = await demoUser('de_DE', 'DE');
    const r = await raw(base, 'GET', '/api/v1/insights', { headers: de.h });
    expect(r.status).toBe(200);
    expect(r.json()).toEqual([]);
  });

  test('overrides configured for a locale: applied to its users; another locale shows only configured types', async () => {
    const put = (locale: string, type: string, json: unknown, auth = `Token ${t.sandbox.connectorToken}`) =>
      raw(base, 'PUT', `/sandbox/insights/overrides/${locale}/${type}`, { headers: { authorization: auth }, json });
    expect((await put('de_DE', 'LARGE_EXPENSE', { title: 'Große Ausgabe' }, 'Bearer nope')).status).toBe(401);
    expect((await put('de_DE', 'LARGE_EXPENSE', {})).status).toBe(400);
    expect(
      (await put('de_DE', 'LARGE_EXPENSE', { title: 'Große Ausgabe', description: 'Siehe: {description}' })).status,
    ).toBe(200);
    expect((await put('nl_NL', 'LARGE_EXPENSE', { title: 'Grote uitgave' })).status).toBe(200);
    const de = await demoUser('de_DE', 'DE');
    const list = (await raw(base, 'GET', '/api/v1/insights', { headers: de.h })).json();
    expect(list.map((i: { type: string }) => i.type)).toEqual(['LARGE_EXPENSE']);
    expect(list[0].title).toBe('Große Ausgabe');
    expect(list[0].description).toMatch(/^Siehe: You spent \d+\.\d\d SEK at /);
    // an en_US override wraps the built-in title
    expect((await put('en_US', 'DOUBLE_CHARGE', { title: 'Heads up: {title}' })).status).toBe(200);
    const en = await demoUser('en_US');
    const dbl = (await raw(base, 'GET', '/api/v1/insights', { headers: en.h }))
      .json()
      .find((i: { type: string }) => i.type === 'DOUBLE_CHARGE');
    expect(dbl.title).toBe('Heads up: Charged twice at PIZZERIA NAPOLI?');
  });

  test('high balance and an unusual category from hand-made data', async () => {
    const u = await userWithLocale(t.sandbox, SCOPES, 'GB', 'en_US');
    const s = t.sandbox.store;
    const a = addAccount(s, u.userId, { balance: '50000.00', currencyCode: 'SEK' });
    // groceries 1000 a month for three months, then 3000 last month
    monthly(a, 'expenses:food.groceries', ['-1000.00', '-1000.00', '-1000.00', '-3000.00']);
    const list = (await raw(base, 'GET', '/api/v1/insights', { headers: u.h })).json();
    const high = list.find((i: { type: string }) => i.type === 'UNUSUAL_CATEGORY_HIGH');
    expect(high.data).toMatchObject({
      categoryId: cat('expenses:food'),
      spentAmount: { unscaledValue: 300000 },
      averageAmount: { unscaledValue: 100000 },
    });
    expect(high.title).toBe('More than usual on Food & Drinks');
    const bal = list.find((i: { type: string }) => i.type === 'ACCOUNT_BALANCE_HIGH');
    expect(bal.data.accountId).toBe(a.id);
    expect(bal.title).toBe('50000.00 SEK on Everyday account');
    expect(list.some((i: { type: string }) => i.type === 'ACCOUNT_BALANCE_LOW')).toBe(false);
    // an account excluded from personal finance features gives no insights
    const x = addAccount(s, u.userId, { balance: '5.00', accountExclusion: 'PFM_DATA', accountNumber: '1-2' });
    addTx(s, x, '-99999.00', day(-1), { categoryId: cat('expenses:shopping.other') });
    const after = (await raw(base, 'GET', '/api/v1/insights', { headers: u.h })).json();
    expect(after.some((i: { type: string }) => i.type === 'LARGE_EXPENSE' || i.type === 'ACCOUNT_BALANCE_LOW')).toBe(
      false,
    );
  });

  test('a category spent on far less than usual last month is the low insight, in the user’s language', async () => {
    const u = await userWithLocale(t.sandbox, SCOPES, 'SE', 'sv_SE');
    const a = addAccount(t.sandbox.store, u.userId, { balance: '2000.00', currencyCode: 'SEK' });
    // restaurants 1200.50 a month for three months, then 100 last month
    monthly(a, 'expenses:food.restaurants', ['-1200.50', '-1200.50', '-1200.50', '-100.00']);
    const list = (await raw(base, 'GET', '/api/v1/insights', { headers: u.h })).json();
    expect(list.map((i: { type: string }) => i.type)).not.toContain('UNUSUAL_CATEGORY_HIGH');
    const low = list.find((i: { type: string }) => i.type === 'UNUSUAL_CATEGORY_LOW');
    expect(low).toMatchObject({
      title: 'Mindre än vanligt på Mat & Dryck',
      description: expect.stringMatching(
        /^Du spenderade 100,00 SEK på Mat & Dryck under .+; vanligtvis 1200,50 SEK i månaden\.$/,
      ),
      data: {
        type: 'UNUSUAL_CATEGORY_LOW',
        categoryId: cat('expenses:food'),
        spentAmount: { unscaledValue: 10000, scale: 2 },
        averageAmount: { unscaledValue: 120050, scale: 2 },
      },
      insightActions: [{ data: { type: 'ACKNOWLEDGE' } }],
    });
  });

  test('action and the deprecated archive move an active insight to archived; 404 once it is not active', async () => {
    const u = await demoUser('en_US');
    const list = (await raw(base, 'GET', '/api/v1/insights', { headers: u.h })).json();
    const [first, second] = list;
    const act = (json: unknown) => raw(base, 'POST', '/api/v1/insights/action', { headers: u.h, json });
    expect((await act({ insightId: first.id })).status).toBe(400);
    expect((await act({ insightAction: 'ACKNOWLEDGE' })).status).toBe(400);
    const notOffered = await act({ insightId: first.id, insightAction: 'NOT_AN_ACTION' });
    expect(notOffered.status).toBe(400);
    expect(notOffered.text).toMatch(/not offered/);
    expect((await act({ insightId: '0123456789abcdef0123456789abcdef', insightAction: 'ACKNOWLEDGE' })).status).toBe(
      404,
    );

    t.sandbox.clock.advance(1000);
    const chosen = first.insightActions[0].data.type;
    const before = t.sandbox.clock.now();
    const ok = await act({ insightId: first.id, insightAction: chosen });
    expect(ok.status).toBe(204);
    expect(ok.text).toBe('');
    const put = await raw(base, 'PUT', `/api/v1/insights/${second.id}/archive`, { headers: u.h });
    expect(put.status).toBe(204);

    const active = (await raw(base, 'GET', '/api/v1/insights', { headers: u.h }))
      .json()
      .map((i: { id: string }) => i.id);
    expect(active).not.toContain(first.id);
    expect(active).not.toContain(second.id);
    const archived = (await raw(base, 'GET', '/api/v1/insights/archived', { headers: u.h })).json();
    expect(archived.map((i: { id: string }) => i.id)).toEqual([first.id, second.id]);
    expect(archived[0]).toMatchObject({
      insightType: first.type, // the vendor reference's ArchivedInsightDTO
      type: first.type, // the older Swagger's ArchivedInsight
      title: first.title,
      dateInsightCreated: first.createdTime,
      insightAction: chosen,
    });
    // archived by the sandbox clock, which the test moved on
    expect(archived[0].dateArchived).toBeGreaterThanOrEqual(before);
    expect(archived[0].dateArchived).toBeLessThanOrEqual(t.sandbox.clock.now());
    expect(archived[0].dateArchived - first.createdTime).toBeGreaterThanOrEqual(1000);

    const again = await act({ insightId: first.id, insightAction: chosen });
    expect(again.status).toBe(404);
    expect(again.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await raw(base, 'PUT', `/api/v1/insights/${first.id}/archive`, { headers: u.h })).status).toBe(404);
    // another user cannot touch them
    const other = await demoUser('en_US');
    const theirs = (await raw(base, 'GET', '/api/v1/insights', { headers: other.h })).json()[0];
    expect((await raw(base, 'PUT', `/api/v1/insights/${theirs.id}/archive`, { headers: u.h })).status).toBe(404);
  });
});
