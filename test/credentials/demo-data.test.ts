// The category catalogue and the demo data the test providers' refreshes generate.
import { describe, expect, test } from 'vitest';
import { IdSource, MemoryStore, SandboxClock } from '../../src/sandbox/store.js';
import { generateDemoDataDetailed, planDemoAccounts, type DemoDataOptions } from '../../src/sandbox/demo-data.js';
import {
  CATEGORIES,
  categoryByCode,
  categoryById,
  categoryName,
  leafCategories,
  primaryOf,
  apiCategory,
} from '../../src/sandbox/categories.js';
import { addDecimals } from '../../src/output/money.js';

const NOW = Date.UTC(2026, 10, 22, 9, 30);
const store = () => new MemoryStore(new SandboxClock(() => NOW), new IdSource(7));
const opts = (o: Partial<DemoDataOptions> = {}): DemoDataOptions => ({
  userId: 'u1',
  credentialsIds: ['c1'],
  providerName: 'se-test-password',
  currencyCode: 'SEK',
  seed: 'u1:bank:test-user',
  now: NOW,
  ...o,
});

describe('categories', () => {
  test('a flat list with parent links: every leaf has a primary parent of the same type, ids are dashless UUIDs and unique', () => {
    const ids = new Set(CATEGORIES.map((c) => c.id));
    expect(ids.size).toBe(CATEGORIES.length);
    for (const c of CATEGORIES) {
      expect(c.id).toMatch(/^[0-9a-f]{32}$/);
      if (c.primary) expect(c.parent).toBeNull();
      else {
        const p = categoryById(c.parent!)!;
        expect(p.primary).toBe(true);
        expect(p.type).toBe(c.type);
        expect(c.code.startsWith(`${p.code}.`)).toBe(true);
      }
    }
    for (const code of [
      'income:salary.other',
      'expenses:food.groceries',
      'expenses:food.restaurants',
      'expenses:food.coffee',
      'expenses:transport.fuel',
      'expenses:transport.publictransport',
      'expenses:home.rent',
      'expenses:home.mortgage-interest',
      'expenses:home.utilities',
      'expenses:shopping.clothes',
      'expenses:entertainment.streaming',
      'expenses:health.pharmacy',
      'expenses:travel.flights',
      'expenses:misc.uncategorized',
      'transfers:own.accounts',
      'transfers:savings.other',
      'transfers:payments.creditcard',
    ]) {
      expect(categoryByCode(code), code).toBeDefined();
    }
    expect(leafCategories('TRANSFER').every((c) => c.code.startsWith('transfers:'))).toBe(true);
    const groceries = categoryByCode('expenses:food.groceries')!;
    expect(categoryName(groceries, 'sv_SE')).toBe('Livsmedel');
    expect(categoryName(groceries, 'en_US')).toBe('Groceries');
    expect(apiCategory(groceries, 'sv_SE')).toMatchObject({
      code: 'expenses:food.groceries',
      type: 'EXPENSES',
      primaryName: 'Mat & Dryck',
      secondaryName: 'Livsmedel',
      parent: primaryOf(groceries).id,
    });
    // the connector's uncategorised ids are in the catalogue
    expect(categoryById('0e1bade6a7e3459eb794e3b5a4f3c2e1')!.code).toBe('expenses:misc.uncategorized');
    expect(categoryById('0e1bade6a7e3459eb794e3b5a4f3c2e2')!.type).toBe('INCOME');
  });
});

describe('demo data', () => {
  test('five account types with holder, number and a valid IBAN; six months of categorised leaf transactions; fast', () => {
    const s = store();
    const started = performance.now();
    const r = generateDemoDataDetailed(s, opts());
    expect(performance.now() - started).toBeLessThan(200);
    expect(r.accounts.map((a) => a.type)).toEqual(['CHECKING', 'SAVINGS', 'INVESTMENT', 'MORTGAGE', 'LOAN']);
    for (const a of r.accounts) {
      expect(a.id).toMatch(/^[0-9a-f]{32}$/);
      expect(a.credentialsIds).toEqual(['c1']);
      expect(a.holderName).toBeTruthy();
      expect(a.accountNumber).toMatch(/^\d{4}-\d{9}$/);
      // ISO 13616: move the first four characters to the end, letters to numbers, mod 97 is 1
      const iban = a.iban!;
      expect(iban).toMatch(/^SE\d{22}$/);
      const numeric = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (ch) => String(ch.charCodeAt(0) - 55));
      expect(BigInt(numeric) % 97n).toBe(1n);
      expect(a.balance).toMatch(/^-?\d+\.\d{2}$/);
    }
    expect(r.accounts.find((a) => a.type === 'INVESTMENT')!.portfolioType).toBe('ISK');
    expect(r.accounts.find((a) => a.type === 'MORTGAGE')!.balance.startsWith('-')).toBe(true);
    expect(s.accounts.size).toBe(5);
    expect(s.transactions.size).toBe(r.transactions.length);
    expect(r.transactions.length).toBeGreaterThan(200);
    const dates = r.transactions.map((t) => t.bookedDate).sort();
    expect(dates[0]! >= '2026-05-22').toBe(true);
    expect(dates[dates.length - 1]! <= '2026-11-22').toBe(true);
    for (const t of r.transactions) {
      const c = categoryById(t.categoryId)!;
      expect(c.primary).toBe(false);
      expect(t.amount).toMatch(/^-?\d+\.\d{2}$/);
      expect(t.id).toMatch(/^[0-9a-f]{32}$/);
      if (c.type === 'INCOME') expect(t.amount.startsWith('-')).toBe(false);
      if (c.type === 'EXPENSES' && c.code !== 'expenses:misc.uncategorized')
        expect(t.amount.startsWith('-')).toBe(true);
    }
    // salary on the 25th or the business day before; seq follows insertion
    const salaries = r.transactions.filter((t) => categoryById(t.categoryId)!.code === 'income:salary.other');
    expect(salaries.length).toBe(6);
    for (const sal of salaries) expect(['23', '24', '25']).toContain(sal.bookedDate.slice(8));
    const seqs = r.transactions.map((t) => t.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    // transfers between own accounts balance out to zero
    const savingsIn = r.transactions.filter(
      (t) => t.accountId === r.accounts[1]!.id && categoryById(t.categoryId)!.code === 'transfers:savings.other',
    );
    const savingsOut = r.transactions.filter(
      (t) => t.accountId === r.accounts[0]!.id && categoryById(t.categoryId)!.code === 'transfers:savings.other',
    );
    expect(addDecimals([...savingsIn, ...savingsOut].map((t) => t.amount))).toBe('0.00');
    // card purchases have merchants; a few recent ones are pending
    expect(r.transactions.some((t) => t.merchantName === 'ICA Supermarket' || t.merchantCategoryCode === '5411')).toBe(
      true,
    );
    expect(r.transactions.filter((t) => t.status === 'PENDING').length).toBeGreaterThan(0);
  });

  test('what finance features look for: one unusually large expense, a double charge, a low-balance moment; balances add up exactly', () => {
    const r = generateDemoDataDetailed(store(), opts());
    const large = r.transactions.find((t) => t.id === r.highlights.largeExpenseId)!;
    const expenses = r.transactions
      .filter((t) => categoryById(t.categoryId)!.type === 'EXPENSES' && t.id !== large.id)
      .map((t) => -Number(t.amount));
    expect(-Number(large.amount)).toBeGreaterThan(Math.max(...expenses) * 2);
    const [a, b] = r.highlights.doubleChargeIds!.map((id) => r.transactions.find((t) => t.id === id)!);
    expect([a!.merchantName, a!.amount, a!.bookedDate]).toEqual([b!.merchantName, b!.amount, b!.bookedDate]);
    expect(a!.id).not.toBe(b!.id);
    // the checking account's balance history, computed backwards from today, touches the low point
    const checking = r.accounts[0]!;
    const mine = r.transactions.filter((t) => t.accountId === checking.id);
    const after = mine.filter((t) => t.bookedDate > r.highlights.lowBalance!.date).map((t) => t.amount);
    const atLow = addDecimals([checking.balance, ...after.map((x) => (x.startsWith('-') ? x.slice(1) : `-${x}`))]);
    expect(atLow).toBe(r.highlights.lowBalance!.balance);
    expect(Number(atLow)).toBeLessThan(1000);
    expect(Number(checking.balance)).toBeGreaterThan(1000);
  });

  test('deterministic: the same seed gives the same ids and amounts; a second run adds nothing and adds the second credentials', () => {
    const s1 = store();
    const s2 = store();
    const a = generateDemoDataDetailed(s1, opts());
    const b = generateDemoDataDetailed(s2, opts());
    expect(b.transactions.map((t) => [t.id, t.amount, t.bookedDate])).toEqual(
      a.transactions.map((t) => [t.id, t.amount, t.bookedDate]),
    );
    const again = generateDemoDataDetailed(s1, opts({ credentialsIds: ['c2'] }));
    expect(again.created).toEqual([]);
    expect(s1.transactions.size).toBe(a.transactions.length);
    expect(again.accounts.every((x) => x.credentialsIds.join() === 'c1,c2')).toBe(true);
    const other = generateDemoDataDetailed(store(), opts({ seed: 'someone-else' }));
    expect(other.accounts[0]!.id).not.toBe(a.accounts[0]!.id);
    // a day later: only that day's transactions are new
    const before = s1.accounts.get(a.accounts[0]!.id)!.balance;
    const later = generateDemoDataDetailed(s1, opts({ now: NOW + 86_400_000 }));
    expect(later.created.every((t) => t.bookedDate === '2026-11-23')).toBe(true);
    const addedToChecking = later.created.filter((t) => t.accountId === a.accounts[0]!.id).map((t) => t.amount);
    expect(s1.accounts.get(a.accounts[0]!.id)!.balance).toBe(addDecimals([before, ...addedToChecking]));
    expect(later.transactions.filter((t) => t.id === a.highlights.largeExpenseId)).toHaveLength(1);
    expect(later.highlights.largeExpenseId).toBe(a.highlights.largeExpenseId);
  });

  test('the account filter (opt-in) and other currencies', () => {
    const plan = planDemoAccounts(opts());
    const s = store();
    const r = generateDemoDataDetailed(s, opts({ accountFilter: (x) => x.id === plan[1]!.id }));
    expect(r.accounts.map((x) => x.type)).toEqual(['SAVINGS']);
    expect(r.accounts[0]!.balance).toBe(plan[1]!.balance);
    expect([...s.transactions.values()].every((t) => t.accountId === plan[1]!.id)).toBe(true);
    const eur = generateDemoDataDetailed(store(), opts({ currencyCode: 'EUR', market: 'DE' }));
    expect(eur.accounts[0]!.iban).toMatch(/^DE\d{2}\d{18}$/);
    expect(eur.transactions.every((t) => t.currencyCode === 'EUR')).toBe(true);
  });
});
