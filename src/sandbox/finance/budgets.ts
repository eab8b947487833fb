// Budget model and arithmetic: the Swagger's Budget shape, periods per periodicity, and what was
// spent in each (expenses on accounts taking part in personal finance features, exact decimals).
import type { MemoryStore } from '../store.js';
import { categoryByCode, type Category } from '../categories.js';
import { bucketOf, bucketsBetween, DAY_MS, type Bucket, type Resolution } from './dates.js';
import { add, dec, denominated, neg, ZERO, type Dec, cmp } from '../../contract/decimal.js';
import {
  tagsOf,
  txCategory,
  txPrimary,
  txType,
  userAccounts,
  userTransactions,
  mainCurrency,
  type Tx,
} from './data.js';
import { plain } from '../http.js';
import { marketCurrency } from '../../contract/markets.js';
import type { BudgetFilter } from '../../contract/wire.js';

export type PeriodUnit = 'WEEK' | 'MONTH' | 'YEAR';
export const PERIOD_UNITS: PeriodUnit[] = ['WEEK', 'MONTH', 'YEAR'];
const UNIT_RES: Record<PeriodUnit, Resolution> = { WEEK: 'WEEKLY', MONTH: 'MONTHLY', YEAR: 'YEARLY' };

export type { BudgetFilter } from '../../contract/wire.js';

export interface BudgetRecord {
  id: string;
  userId: string;
  name: string;
  /** Exact decimal string. */
  amount: string;
  currencyCode: string;
  periodicityType: 'ONE_OFF' | 'RECURRING';
  recurringPeriodicity?: { periodUnit: PeriodUnit };
  oneOffPeriodicity?: { start: number; end: number };
  archived: boolean;
  filter: BudgetFilter;
  created: number;
}

export function budgetJson(b: BudgetRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: b.id,
    name: b.name,
    amount: denominated(dec(b.amount), b.currencyCode),
    periodicityType: b.periodicityType,
    archived: b.archived,
    // the vendor reference's Budgets model has it (the older Swagger does not): epoch ms
    created: b.created,
    filter: b.filter,
  };
  if (b.recurringPeriodicity) out.recurringPeriodicity = b.recurringPeriodicity;
  if (b.oneOffPeriodicity) out.oneOffPeriodicity = b.oneOffPeriodicity;
  return out;
}

/** The user's currency: that of most of their accounts, else their market's. */
export function userCurrency(store: MemoryStore, userId: string): string {
  const u = store.users.get(userId);
  return mainCurrency(userAccounts(store, userId), marketCurrency(u?.market ?? ''));
}

// ---- request parsing (400 with a plain string) ----

export function parseAmount(v: unknown, currency: string): Dec {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw plain(400, 'amount is required: {unscaledValue, scale, currencyCode}');
  const o = v as Record<string, unknown>;
  // the Swagger's CurrencyDenominatedAmount; the v2 shape {currencyCode, value: {scale, unscaledValue}} is accepted too
  const inner = o.value && typeof o.value === 'object' ? (o.value as Record<string, unknown>) : o;
  const u = inner.unscaledValue;
  const s = inner.scale;
  if (!((typeof u === 'number' && Number.isSafeInteger(u)) || (typeof u === 'string' && /^-?\d{1,30}$/.test(u))))
    throw plain(
      400,
      typeof u === 'number' && Number.isInteger(u)
        ? // beyond 2^53 the number has lost digits on its way in: the exact value cannot be known
          'amount.unscaledValue beyond 9007199254740991 must be sent as a decimal string, e.g. "12345678901234567891"'
        : 'amount.unscaledValue must be an integer',
    );
  const scale = Number(s);
  if (!((typeof s === 'number' || typeof s === 'string') && Number.isInteger(scale) && scale >= 0 && scale <= 18))
    throw plain(400, 'amount.scale must be an integer from 0 to 18');
  if (typeof o.currencyCode !== 'string' || !/^[A-Z]{3}$/.test(o.currencyCode))
    throw plain(400, 'amount.currencyCode must be an ISO 4217 code');
  if (o.currencyCode !== currency)
    throw plain(400, `amount.currencyCode ${o.currencyCode} does not match the user's currency ${currency}`);
  const d: Dec = { u: BigInt(u as string | number), s: scale };
  if (d.u <= 0n) throw plain(400, 'amount must be greater than zero');
  return d;
}

export function parseFilter(store: MemoryStore, userId: string, v: unknown): BudgetFilter {
  if (v === undefined || v === null) throw plain(400, 'filter is required (use {} for every expense)');
  if (typeof v !== 'object' || Array.isArray(v)) throw plain(400, 'filter must be an object');
  const o = v as Record<string, unknown>;
  const f: BudgetFilter = {};
  const list = (key: string, field: string): string[] | undefined => {
    const x = o[key];
    if (x === undefined || x === null) return undefined;
    if (
      !Array.isArray(x) ||
      x.some((e) => !e || typeof e !== 'object' || typeof (e as Record<string, unknown>)[field] !== 'string')
    ) {
      throw plain(400, `filter.${key} must be an array of {${field}: string}`);
    }
    return x.map((e) => (e as Record<string, string>)[field]!);
  };
  const accounts = list('accounts', 'id');
  if (accounts) {
    const mine = new Set(userAccounts(store, userId).map((a) => a.id));
    const bad = accounts.find((a) => !mine.has(a));
    if (bad !== undefined) throw plain(400, `filter.accounts: unknown account ${bad.slice(0, 64)}`);
    f.accounts = accounts.map((id) => ({ id }));
  }
  const categories = list('categories', 'code');
  if (categories) {
    const bad = categories.find((c) => categoryByCode(c)?.type !== 'EXPENSES');
    if (bad !== undefined)
      throw plain(
        400,
        `filter.categories: "${bad.slice(0, 64)}" is not an expense category code (for example expenses:food.coffee)`,
      );
    f.categories = categories.map((code) => ({ code }));
  }
  const tags = list('tags', 'key');
  if (tags) f.tags = tags.map((key) => ({ key: key.replace(/^#/, '') }));
  if (o.freeTextQuery !== undefined && o.freeTextQuery !== null) {
    if (typeof o.freeTextQuery !== 'string') throw plain(400, 'filter.freeTextQuery must be a string');
    if (o.freeTextQuery.trim()) f.freeTextQuery = o.freeTextQuery;
  }
  return f;
}

export const MAX_EPOCH = 253402300799999;

export function parseEpoch(v: unknown, name: string): number {
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  // up to the end of year 9999, so every period computed from it is a real date
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || n > MAX_EPOCH)
    throw plain(400, `${name} must be an epoch time in milliseconds (0 to ${MAX_EPOCH})`);
  return n;
}

export function parseOneOff(v: unknown): { start: number; end: number } {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw plain(400, 'oneOffPeriodicity is required: {start, end} in epoch milliseconds');
  const o = v as Record<string, unknown>;
  const start = parseEpoch(o.start, 'oneOffPeriodicity.start');
  const end = parseEpoch(o.end, 'oneOffPeriodicity.end');
  if (start > end) throw plain(400, 'oneOffPeriodicity.start is after oneOffPeriodicity.end');
  return { start, end };
}

export function parseRecurring(v: unknown): { periodUnit: PeriodUnit } {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw plain(400, `recurringPeriodicity is required: {periodUnit: ${PERIOD_UNITS.join(' | ')}}`);
  const u = (v as Record<string, unknown>).periodUnit;
  if (typeof u !== 'string' || !PERIOD_UNITS.includes(u as PeriodUnit))
    throw plain(400, `recurringPeriodicity.periodUnit must be one of ${PERIOD_UNITS.join(', ')}`);
  return { periodUnit: u as PeriodUnit };
}

export function parseName(v: unknown): string {
  if (typeof v !== 'string' || v.trim() === '') throw plain(400, 'name is required');
  if (v.length > 256) throw plain(400, 'name is longer than 256 characters');
  return v;
}

// ---- arithmetic ----

export interface BudgetPeriod {
  start: number;
  /** Last millisecond of the period (inclusive). */
  end: number;
}

/** The period of a budget that holds an instant (a one-off budget has one). */
export function periodAt(b: BudgetRecord, at: number): BudgetPeriod {
  if (b.oneOffPeriodicity) return { ...b.oneOffPeriodicity };
  const k = bucketOf(UNIT_RES[b.recurringPeriodicity!.periodUnit], at);
  return { start: k.start, end: k.end - 1 };
}

/** Every period from the one holding `from` to the one holding `to`. */
export function periodsBetween(b: BudgetRecord, from: number, to: number, max: number): BudgetPeriod[] | undefined {
  if (b.oneOffPeriodicity) return [{ ...b.oneOffPeriodicity }];
  const list: Bucket[] = bucketsBetween(UNIT_RES[b.recurringPeriodicity!.periodUnit], from, to, max + 1);
  if (list.length > max) return undefined;
  return list.map((k) => ({ start: k.start, end: k.end - 1 }));
}

function matchesCategory(c: Category | undefined, primary: Category | undefined, codes: string[]): boolean {
  return codes.some((code) => c?.code === code || primary?.code === code);
}

/** The budget's transactions: expenses matching every filter property (OR within one). */
export function budgetTransactions(store: MemoryStore, b: BudgetRecord): Tx[] {
  const f = b.filter;
  return userTransactions(store, b.userId, 'pfm').filter((t) => {
    if (t.rec.currencyCode !== b.currencyCode || txType(t) !== 'EXPENSES') return false;
    if (f.accounts && !f.accounts.some((a) => a.id === t.rec.accountId)) return false;
    if (
      f.categories &&
      !matchesCategory(
        txCategory(t),
        txPrimary(t),
        f.categories.map((c) => c.code),
      )
    )
      return false;
    if (f.tags) {
      const tags = tagsOf(t.rec);
      if (!f.tags.some((k) => tags.includes(k.key.toLowerCase()))) return false;
    }
    if (f.freeTextQuery) {
      const q = f.freeTextQuery.toLowerCase();
      if (!`${t.rec.description} ${t.rec.originalDescription}`.toLowerCase().includes(q)) return false;
    }
    return true;
  });
}

export function inPeriod(t: Tx, p: BudgetPeriod): boolean {
  // a booked date is a whole day: it counts when the day overlaps the period
  return t.date + DAY_MS - 1 >= p.start && t.date <= p.end;
}

/** Spent in a period: expenses as a positive amount (a refund in the same category lowers it). */
export function spent(txs: Tx[], p: BudgetPeriod): Dec {
  let total = ZERO;
  for (const t of txs) if (inPeriod(t, p)) total = add(total, neg(t.amount));
  return cmp(total, ZERO) < 0 ? ZERO : total;
}
