// Statistics (spec 2.7): every type of the table with its allowed resolutions, computed from the
// user's transactions and balances on accounts that take part in personal finance features.
import type { MemoryStore } from '../store.js';
import { STATISTIC_RESOLUTIONS } from '../../contract/wire.js';
import { bucketOf, bucketsBetween, DAY_MS, startOfDay, type Bucket, type Resolution } from './dates.js';
import {
  add,
  dec,
  divHalfEven,
  neg,
  sub,
  toNumber,
  toStr,
  ZERO,
  exactAmount,
  type Dec,
} from '../../contract/decimal.js';
import { mainCurrency, txCategory, txPrimary, txType, userAccounts, userTransactions, type Tx } from './data.js';
import type { AccountRecord } from '../store.js';

/** Spec 2.7's table, shared with the CLI, which checks it before sending. */
export const STATISTIC_TYPES = STATISTIC_RESOLUTIONS as Record<string, Resolution[]>;

/**
 * Account type groups of balances-by-account-type-group, as the service groups them (the vendor's
 * statistics reference): checking, credit card and other accounts are CARDS_AND_ACCOUNTS, mortgages
 * and loans LOANS, investment, pension and savings accounts SAVINGS. External accounts, which the
 * reference does not name, go with the other accounts.
 */
export function typeGroup(a: AccountRecord): string {
  switch (a.type) {
    case 'SAVINGS':
    case 'INVESTMENT':
    case 'PENSION':
      return 'SAVINGS';
    case 'MORTGAGE':
    case 'LOAN':
      return 'LOANS';
    default:
      return 'CARDS_AND_ACCOUNTS';
  }
}

export interface StatisticQuery {
  types: string[];
  resolution: Resolution;
  /** OR within the property; undefined: every description. */
  descriptions?: string[];
  periods?: string[];
  padResultUntilToday: boolean;
}

export interface Statistic {
  description: string;
  payload?: string;
  period: string;
  resolution: Resolution;
  type: string;
  userId: string;
  value: number;
  /** Sandbox extension: the exact amount behind value (absent for counts). */
  amount?: ReturnType<typeof exactAmount>;
}

interface Series {
  type: string;
  description: string;
  payload?: string;
  /** period label -> value */
  points: Map<string, Dec>;
  buckets: Map<string, Bucket>;
  kind: 'sum' | 'count' | 'level';
}

export function computeStatistics(store: MemoryStore, userId: string, q: StatisticQuery, now: number): Statistic[] {
  const accounts = userAccounts(store, userId, 'pfm');
  const currency = mainCurrency(accounts);
  const txs = userTransactions(store, userId, 'pfm').filter((t) => t.rec.currencyCode === currency);
  const res = q.resolution;
  const out: Series[] = [];
  const series = (type: string, description: string, kind: Series['kind'], payload?: string): Series => {
    let s = out.find((x) => x.type === type && x.description === description);
    if (!s) {
      s = { type, description, payload, points: new Map(), buckets: new Map(), kind };
      out.push(s);
    }
    return s;
  };
  const put = (s: Series, b: Bucket, v: Dec, mode: 'add' | 'set') => {
    s.buckets.set(b.label, b);
    s.points.set(b.label, mode === 'add' ? add(s.points.get(b.label) ?? ZERO, v) : v);
  };
  const ONE: Dec = { u: 1n, s: 0 };

  // a type named twice is one series: summing it twice doubled every amount
  for (const type of new Set(q.types)) {
    switch (type) {
      case 'expenses-by-category':
      case 'expenses-by-primary-category':
      case 'expenses-by-category/by-count':
      case 'expenses-by-primary-category/by-count':
      case 'income-by-category': {
        const wantType = type === 'income-by-category' ? 'INCOME' : 'EXPENSES';
        const primary = type.includes('primary');
        const count = type.endsWith('/by-count');
        for (const t of txs) {
          if (txType(t) !== wantType) continue;
          const cat = primary ? txPrimary(t) : txCategory(t);
          const s = series(type, cat?.id ?? t.rec.categoryId ?? '', count ? 'count' : 'sum', cat?.code);
          // expenses are shown as positive amounts spent; a refund inside an expense category lowers them
          put(s, bucketOf(res, t.date), count ? ONE : wantType === 'EXPENSES' ? neg(t.amount) : t.amount, 'add');
        }
        break;
      }
      case 'income-and-expenses':
        for (const t of txs) {
          const ty = txType(t);
          if (ty === 'TRANSFER') continue;
          // signed within the type: a refund in an expense category lowers the expenses
          put(series(type, ty, 'sum'), bucketOf(res, t.date), ty === 'EXPENSES' ? neg(t.amount) : t.amount, 'add');
        }
        break;
      case 'balances-by-account':
      case 'balances-by-account-type-group': {
        for (const a of accounts.filter((x) => x.currencyCode === currency)) {
          const levels = balanceLevels(store, a, res, now);
          const s = series(type, type === 'balances-by-account' ? a.id : typeGroup(a), 'level');
          for (const [b, v] of levels) put(s, b, v, type === 'balances-by-account' ? 'set' : 'add');
        }
        break;
      }
      case 'left-to-spend':
      case 'left-to-spend-average':
        leftToSpend(txs, res, type, now, (desc, b, v) => put(series(type, desc, 'level'), b, v, 'set'));
        break;
    }
  }

  if (q.padResultUntilToday) {
    const today = bucketOf(res, now);
    for (const s of out) {
      if (s.type.startsWith('left-to-spend')) continue; // one series per date: nothing to carry
      const labels = [...s.buckets.values()].sort((a, b) => a.start - b.start);
      const last = labels.at(-1);
      if (!last) continue;
      let b = bucketOf(res, last.end);
      const carry = s.kind === 'level' ? s.points.get(last.label)! : ZERO;
      while (b.start <= today.start) {
        put(s, b, carry, 'set');
        b = bucketOf(res, b.end);
      }
    }
  }

  const result: Statistic[] = [];
  for (const s of out) {
    if (q.descriptions && !q.descriptions.includes(s.description)) continue;
    const entries = [...s.buckets.values()].sort((a, b) => a.start - b.start);
    for (const b of entries) {
      if (q.periods && !q.periods.some((p) => periodMatches(b.label, p))) continue;
      const v = s.points.get(b.label)!;
      const st: Statistic = {
        description: s.description,
        period: b.label,
        resolution: res,
        type: s.type,
        userId,
        value: toNumber(v),
      };
      if (s.payload) st.payload = s.payload;
      if (s.kind !== 'count') st.amount = exactAmount(v, currency);
      result.push(st);
    }
  }
  return result;
}

/** A result period matches a queried one when equal, or inside it (2024 holds 2024-05 and 2024:07). */
export function periodMatches(label: string, queried: string): boolean {
  return label === queried || label.startsWith(`${queried}-`) || label.startsWith(`${queried}:`);
}

/** Closing balance of each period, worked back from today's balance through the transactions. */
function balanceLevels(store: MemoryStore, a: AccountRecord, res: Resolution, now: number): Array<[Bucket, Dec]> {
  const txs = store.transactions
    .ofUser(a.userId)
    .filter((t) => t.accountId === a.id)
    .sort((x, y) => (x.bookedDate < y.bookedDate ? 1 : x.bookedDate > y.bookedDate ? -1 : 0));
  let balance: Dec;
  try {
    balance = dec(a.balance);
  } catch {
    return [];
  }
  const first = txs.at(-1);
  const from = first ? Date.parse(`${first.bookedDate}T00:00:00Z`) : now;
  const buckets = bucketsBetween(res, Math.min(from, now), now, 1200).reverse();
  const out: Array<[Bucket, Dec]> = [];
  let i = 0;
  for (const b of buckets) {
    // balance at the end of b = today's balance minus everything booked after b
    while (i < txs.length && Date.parse(`${txs[i]!.bookedDate}T00:00:00Z`) >= b.end) {
      try {
        balance = sub(balance, dec(txs[i]!.amount));
      } catch {
        /* an unparsable amount is left out */
      }
      i++;
    }
    out.push([b, balance]);
  }
  return out.reverse();
}

/**
 * left-to-spend: for each day of each period with data, income minus expenses from the period's
 * start to that day (description = the date). left-to-spend-average: the same day offset averaged
 * over the six periods before (description = the date in the current period).
 */
function leftToSpend(
  txs: Tx[],
  res: Resolution,
  type: string,
  now: number,
  put: (desc: string, b: Bucket, v: Dec) => void,
): void {
  const flows = txs.filter((t) => txType(t) !== 'TRANSFER');
  if (flows.length === 0) return;
  const byDay = new Map<number, Dec>();
  for (const t of flows) byDay.set(t.date, add(byDay.get(t.date) ?? ZERO, t.amount));
  const periods = bucketsBetween(res, flows[0]!.date, Math.max(flows.at(-1)!.date, startOfDay(now)), 1200);
  const cumulative = new Map<string, Dec[]>();
  for (const b of periods) {
    let acc = ZERO;
    const days: Dec[] = [];
    for (let d = b.start; d < b.end; d += DAY_MS) {
      acc = add(acc, byDay.get(d) ?? ZERO);
      days.push(acc);
    }
    cumulative.set(b.label, days);
  }
  periods.forEach((b, idx) => {
    const days = cumulative.get(b.label)!;
    const lastDay = Math.min(b.end, startOfDay(now) + DAY_MS);
    for (let d = b.start, k = 0; d < lastDay; d += DAY_MS, k++) {
      const date = new Date(d).toISOString().slice(0, 10);
      if (type === 'left-to-spend') {
        put(date, b, days[k]!);
        continue;
      }
      const before = periods.slice(Math.max(0, idx - 6), idx);
      if (before.length === 0) continue;
      let total = ZERO;
      for (const p of before) {
        const c = cumulative.get(p.label)!;
        total = add(total, c[Math.min(k, c.length - 1)]!);
      }
      put(date, b, { u: divHalfEven(total.u, BigInt(before.length)), s: total.s });
    }
  });
}

export { toStr };
