// Actionable insights generated from the user's data (spec 4.5, 3.2; shapes from the Swagger).
// Each candidate has a stable key (what it is about); the route gives it an id the first time it
// is seen and keeps it active until the user acts on it.
import type { MemoryStore } from '../store.js';
import { categoryName, primaryOf } from '../categories.js';
import { bucketOf, DAY_MS, isoDate, startOfDay } from './dates.js';
import {
  abs,
  add,
  cmp,
  dec,
  denominated,
  divHalfEven,
  mulRatio,
  neg,
  sub,
  toStr,
  ZERO,
  type Dec,
} from '../../contract/decimal.js';
import { mainCurrency, txCategory, txType, userAccounts, userTransactions, type Tx } from './data.js';

export type InsightLocale = 'en_US' | 'sv_SE';
/** Locales with title and description configuration; insights for other locales are filtered out. */
export const INSIGHT_LOCALES: InsightLocale[] = ['en_US', 'sv_SE'];

export interface InsightCandidate {
  key: string;
  type: string;
  title: string;
  description: string;
  data: Record<string, unknown>;
  actions: string[];
}

const ACTION_LABELS: Record<string, Record<InsightLocale, string>> = {
  ACKNOWLEDGE: { en_US: 'Got it', sv_SE: 'Uppfattat' },
  DISMISS: { en_US: 'Dismiss', sv_SE: 'Avfärda' },
  CREATE_TRANSFER: { en_US: 'Make a transfer', sv_SE: 'Gör en överföring' },
  VIEW_TRANSACTIONS_BY_CATEGORY: { en_US: 'View transactions', sv_SE: 'Visa transaktioner' },
  VIEW_BUDGET: { en_US: 'Create a budget', sv_SE: 'Skapa en budget' },
};

export function actionJson(type: string, locale: InsightLocale): { label: string; data: { type: string } } {
  return { label: ACTION_LABELS[type]?.[locale] ?? type, data: { type } };
}

/** An amount as the locale writes it: 1234.50 SEK, or 1234,50 SEK in Swedish. */
function money(d: Dec, currency: string, locale: InsightLocale): string {
  const s = toStr(d.s < 2 ? { u: d.u * 10n ** BigInt(2 - d.s), s: 2 } : d);
  return `${locale === 'sv_SE' ? s.replace('.', ',') : s} ${currency}`;
}

const T = (locale: InsightLocale, en: string, sv: string) => (locale === 'sv_SE' ? sv : en);

/** What every generator reads: the user's accounts and transactions in their main currency, and averages. */
interface Facts {
  accounts: ReturnType<typeof userAccounts>;
  currency: string;
  txs: Tx[];
  today: number;
  now: number;
  locale: InsightLocale;
  monthlyIncome: Dec;
  monthlyExpenses: Dec;
  /** The last complete month, then the three before it. */
  months: Array<ReturnType<typeof bucketOf>>;
  amt: (d: Dec) => ReturnType<typeof denominated>;
  m: (d: Dec) => string;
  recent: (days: number) => Tx[];
}

function factsOf(store: MemoryStore, userId: string, locale: InsightLocale, now: number): Facts {
  const accounts = userAccounts(store, userId, 'pfm');
  const currency = mainCurrency(accounts);
  const txs = userTransactions(store, userId, 'pfm').filter((t) => t.rec.currencyCode === currency);
  const today = startOfDay(now);
  const recent = (days: number) => txs.filter((t) => t.date > today - days * DAY_MS && t.date <= today);
  // average monthly income and expenses over the last 90 days
  let income90 = ZERO;
  let expenses90 = ZERO;
  for (const t of recent(90)) {
    const ty = txType(t);
    if (ty === 'INCOME') income90 = add(income90, t.amount);
    else if (ty === 'EXPENSES') expenses90 = add(expenses90, neg(t.amount));
  }
  const thisMonth = bucketOf('MONTHLY', now);
  const months = [1, 2, 3, 4].map((k) => bucketOf('MONTHLY', thisMonth.start - 1 - (k - 1) * 31 * DAY_MS));
  // months[0] is the last complete month; make the others contiguous
  for (let k = 1; k < months.length; k++) months[k] = bucketOf('MONTHLY', months[k - 1]!.start - 1);
  return {
    accounts,
    currency,
    txs,
    today,
    now,
    locale,
    monthlyIncome: mulRatio(income90, 1n, 3n),
    monthlyExpenses: mulRatio(expenses90, 1n, 3n),
    months,
    amt: (d: Dec) => denominated(d, currency),
    m: (d: Dec) => money(d, currency, locale),
    recent,
  };
}

/** Large expense: one expense of at least 30% of the average monthly income (10000 without income). */
function largeExpenses(f: Facts): InsightCandidate[] {
  const { locale, monthlyIncome, amt, m, recent } = f;
  const out: InsightCandidate[] = [];
  const largeLimit = cmp(monthlyIncome, ZERO) > 0 ? mulRatio(monthlyIncome, 3n, 10n) : dec('10000');
  for (const t of recent(90)) {
    if (txType(t) !== 'EXPENSES' || cmp(abs(t.amount), largeLimit) < 0) continue;
    out.push({
      key: `LARGE_EXPENSE:${t.rec.id}`,
      type: 'LARGE_EXPENSE',
      title: T(locale, `A large expense of ${m(abs(t.amount))}`, `Ett stort köp på ${m(abs(t.amount))}`),
      description: T(
        locale,
        `You spent ${m(abs(t.amount))} at ${t.rec.description} on ${t.rec.bookedDate}.`,
        `Du handlade för ${m(abs(t.amount))} hos ${t.rec.description} den ${t.rec.bookedDate}.`,
      ),
      data: { type: 'LARGE_EXPENSE', transactionId: t.rec.id, amount: amt(abs(t.amount)), date: t.date },
      actions: ['ACKNOWLEDGE', 'VIEW_TRANSACTIONS_BY_CATEGORY'],
    });
  }
  return out;
}

/** Double charge: two expenses on one account, same day, description and amount. */
function doubleCharges(f: Facts): InsightCandidate[] {
  const { locale, amt, m, recent } = f;
  const out: InsightCandidate[] = [];
  const seen = new Map<string, Tx>();
  for (const t of recent(60)) {
    if (txType(t) !== 'EXPENSES') continue;
    const k = `${t.rec.accountId}|${t.date}|${t.rec.description.toLowerCase()}|${toStr(t.amount)}`;
    const first = seen.get(k);
    if (!first) {
      seen.set(k, t);
      continue;
    }
    out.push({
      key: `DOUBLE_CHARGE:${first.rec.id}:${t.rec.id}`,
      type: 'DOUBLE_CHARGE',
      title: T(locale, `Charged twice at ${t.rec.description}?`, `Dubbeldragning hos ${t.rec.description}?`),
      description: T(
        locale,
        `Two charges of ${m(abs(t.amount))} at ${t.rec.description} on ${t.rec.bookedDate}.`,
        `Två dragningar på ${m(abs(t.amount))} hos ${t.rec.description} den ${t.rec.bookedDate}.`,
      ),
      data: {
        type: 'DOUBLE_CHARGE',
        transactionIds: [first.rec.id, t.rec.id],
        amount: amt(abs(t.amount)),
        date: t.date,
      },
      actions: ['ACKNOWLEDGE', 'DISMISS'],
    });
  }
  return out;
}

/** Low and high balance of checking accounts. */
function balances(f: Facts): InsightCandidate[] {
  const { accounts, currency, txs, today, locale, monthlyExpenses, amt, m } = f;
  const out: InsightCandidate[] = [];
  for (const a of accounts.filter((x) => x.type === 'CHECKING' && x.currencyCode === currency)) {
    let balance: Dec;
    try {
      balance = dec(a.balance);
    } catch {
      continue;
    }
    // closing balance of each of the last 180 days, worked back from today's
    const own = txs.filter((t) => t.rec.accountId === a.id).reverse();
    let i = 0;
    let low: { date: number; balance: Dec } = { date: today, balance };
    for (let d = today; d > today - 180 * DAY_MS; d -= DAY_MS) {
      while (i < own.length && own[i]!.date > d) balance = sub(balance, own[i++]!.amount);
      // walking back in time: the earliest day of the lowest balance wins
      if (cmp(balance, low.balance) <= 0) low = { date: d, balance };
    }
    if (cmp(low.balance, dec('1000')) < 0) {
      out.push({
        key: `ACCOUNT_BALANCE_LOW:${a.id}:${isoDate(low.date)}`,
        type: 'ACCOUNT_BALANCE_LOW',
        title: T(locale, `Your balance on ${a.name} was low`, `Lågt saldo på ${a.name}`),
        description: T(
          locale,
          `The balance on ${a.name} went down to ${m(low.balance)} on ${isoDate(low.date)}. Do you want to transfer money to this account?`,
          `Saldot på ${a.name} var nere på ${m(low.balance)} den ${isoDate(low.date)}. Vill du föra över pengar till kontot?`,
        ),
        data: { type: 'ACCOUNT_BALANCE_LOW', accountId: a.id, balance: amt(low.balance), date: low.date },
        actions: ['CREATE_TRANSFER', 'DISMISS'],
      });
    }
    const current = dec(a.balance);
    if (cmp(monthlyExpenses, ZERO) > 0 && cmp(current, mulRatio(monthlyExpenses, 2n, 1n)) > 0) {
      out.push({
        key: `ACCOUNT_BALANCE_HIGH:${a.id}:${isoDate(today).slice(0, 7)}`,
        type: 'ACCOUNT_BALANCE_HIGH',
        title: T(locale, `${m(current)} on ${a.name}`, `${m(current)} på ${a.name}`),
        description: T(
          locale,
          `That is more than two months of spending (${m(monthlyExpenses)} a month). Do you want to move some to savings?`,
          `Det är mer än två månaders utgifter (${m(monthlyExpenses)} i månaden). Vill du flytta en del till sparande?`,
        ),
        data: {
          type: 'ACCOUNT_BALANCE_HIGH',
          accountId: a.id,
          balance: amt(current),
          monthlyExpenses: amt(monthlyExpenses),
        },
        actions: ['CREATE_TRANSFER', 'DISMISS'],
      });
    }
  }
  return out;
}

/** Unusual category: last complete month against the average of the three before. */
function unusualCategories(f: Facts): InsightCandidate[] {
  const { txs, locale, amt, m, months } = f;
  const out: InsightCandidate[] = [];
  const byCat = new Map<string, Dec[]>();
  for (const t of txs) {
    if (txType(t) !== 'EXPENSES') continue;
    const idx = months.findIndex((b) => t.date >= b.start && t.date < b.end);
    const cat = txCategory(t);
    if (idx < 0 || !cat) continue;
    const p = primaryOf(cat).id;
    const arr = byCat.get(p) ?? [ZERO, ZERO, ZERO, ZERO];
    arr[idx] = add(arr[idx]!, neg(t.amount));
    byCat.set(p, arr);
  }
  const hasHistory = txs.length > 0 && txs[0]!.date < months[3]!.end;
  for (const [catId, arr] of hasHistory ? byCat : []) {
    const cat = primaryOf(txs.map(txCategory).find((c) => c && primaryOf(c).id === catId)!);
    const last = arr[0]!;
    const avg = {
      u: divHalfEven(add(add(arr[1]!, arr[2]!), arr[3]!).u, 3n),
      s: Math.max(arr[1]!.s, arr[2]!.s, arr[3]!.s),
    };
    const name = categoryName(cat, locale);
    const label = months[0]!.label;
    const high = cmp(last, mulRatio(avg, 3n, 2n)) > 0 && cmp(sub(last, avg), dec('500')) >= 0;
    const low = !high && cmp(avg, dec('500')) >= 0 && cmp(last, mulRatio(avg, 1n, 2n)) < 0;
    if (!high && !low) continue;
    const type = high ? 'UNUSUAL_CATEGORY_HIGH' : 'UNUSUAL_CATEGORY_LOW';
    out.push({
      key: `${type}:${catId}:${label}`,
      type,
      title: high
        ? T(locale, `More than usual on ${name}`, `Mer än vanligt på ${name}`)
        : T(locale, `Less than usual on ${name}`, `Mindre än vanligt på ${name}`),
      description: T(
        locale,
        `You spent ${m(last)} on ${name} in ${label}; usually ${m(avg)} a month.`,
        `Du spenderade ${m(last)} på ${name} under ${label}; vanligtvis ${m(avg)} i månaden.`,
      ),
      data: { type, categoryId: catId, period: label, spentAmount: amt(last), averageAmount: amt(avg) },
      actions: high ? ['VIEW_BUDGET', 'VIEW_TRANSACTIONS_BY_CATEGORY', 'DISMISS'] : ['ACKNOWLEDGE'],
    });
  }
  return out;
}

/** Left to spend in the current salary period. */
function leftToSpend(f: Facts): InsightCandidate[] {
  const { txs, today, now, locale, amt, m } = f;
  const out: InsightCandidate[] = [];
  const period = bucketOf('MONTHLY_ADJUSTED', now);
  const inPeriod = txs.filter((t) => t.date >= period.start && t.date < period.end && txType(t) !== 'TRANSFER');
  if (inPeriod.length > 0) {
    let left = ZERO;
    for (const t of inPeriod) left = add(left, t.amount);
    const daysLeft = Math.round((period.end - today) / DAY_MS) - 1;
    out.push({
      key: `LEFT_TO_SPEND:${period.label}`,
      type: 'LEFT_TO_SPEND',
      title: T(locale, `${m(left)} left to spend`, `${m(left)} kvar att spendera`),
      description: T(
        locale,
        `Income minus expenses so far in the period ${period.label}, with ${daysLeft} days to go until the next salary.`,
        `Inkomster minus utgifter hittills under perioden ${period.label}, ${daysLeft} dagar kvar till nästa lön.`,
      ),
      data: { type: 'LEFT_TO_SPEND', period: period.label, amount: amt(left), daysLeft },
      actions: ['ACKNOWLEDGE'],
    });
  }
  return out;
}

/** Weekly and monthly summaries of expenses by category. */
function summaries(f: Facts): InsightCandidate[] {
  const { txs, today, locale, amt, m, months } = f;
  const out: InsightCandidate[] = [];
  const summary = (type: string, from: number, to: number, label: string, en: string, sv: string) => {
    const totals = new Map<string, Dec>();
    let total = ZERO;
    for (const t of txs) {
      if (txType(t) !== 'EXPENSES' || t.date < from || t.date >= to) continue;
      const cat = txCategory(t);
      const key = cat ? primaryOf(cat).id : '';
      totals.set(key, add(totals.get(key) ?? ZERO, neg(t.amount)));
      total = add(total, neg(t.amount));
    }
    if (totals.size === 0) return;
    const ranked = [...totals].sort((x, y) => cmp(y[1], x[1]));
    const top = ranked[0]!;
    const topName = top[0]
      ? categoryName(primaryOf(txs.map(txCategory).find((c) => c && primaryOf(c).id === top[0])!), locale)
      : T(locale, 'Uncategorized', 'Okategoriserat');
    out.push({
      key: `${type}:${label}`,
      type,
      title: T(locale, `${en} ${label}: ${m(total)} spent`, `${sv} ${label}: ${m(total)} i utgifter`),
      description: T(locale, `Most of it on ${topName} (${m(top[1])}).`, `Mest på ${topName} (${m(top[1])}).`),
      data: {
        type,
        period: label,
        totalAmount: amt(total),
        expensesByCategory: ranked.map(([categoryId, v]) => ({ categoryId, spentAmount: amt(v) })),
      },
      actions: ['ACKNOWLEDGE', 'VIEW_TRANSACTIONS_BY_CATEGORY'],
    });
  };
  const week = bucketOf('WEEKLY', today - 7 * DAY_MS);
  summary('WEEKLY_SUMMARY_EXPENSES_BY_CATEGORY', week.start, week.end, week.label, 'Week', 'Vecka');
  summary('MONTHLY_SUMMARY_EXPENSES_BY_CATEGORY', months[0]!.start, months[0]!.end, months[0]!.label, 'Month', 'Månad');
  return out;
}

/** Each kind of insight, generated in this order. */
const GENERATORS: Array<(f: Facts) => InsightCandidate[]> = [
  largeExpenses,
  doubleCharges,
  balances,
  unusualCategories,
  leftToSpend,
  summaries,
];

export function generateInsights(
  store: MemoryStore,
  userId: string,
  locale: InsightLocale,
  now: number,
): InsightCandidate[] {
  const facts = factsOf(store, userId, locale, now);
  return GENERATORS.flatMap((generate) => generate(facts));
}
