// The user's data as the finance areas see it: accounts and transactions from the shared store,
// with accountExclusion applied (spec 2.3), and exact amounts.
import type { AccountRecord, MemoryStore, TransactionRecord } from '../store.js';
import { dec, type Dec } from '../../contract/decimal.js';
import { parseIsoDate } from './dates.js';

export type Purpose = 'pfm' | 'search' | 'all';

/**
 * Whether an account takes part in a feature. AGGREGATION keeps no data at all; PFM_AND_SEARCH
 * (and the deprecated excluded flag) leaves out personal finance features and search; PFM_DATA
 * leaves out personal finance features (statistics, insights, budgets) but stays searchable.
 */
export function accountIncluded(a: AccountRecord, purpose: Purpose): boolean {
  if (purpose === 'all') return true;
  if (a.accountExclusion === 'AGGREGATION' || a.accountExclusion === 'PFM_AND_SEARCH' || a.excluded) return false;
  if (purpose === 'pfm' && a.accountExclusion === 'PFM_DATA') return false;
  return true;
}

export function userAccounts(store: MemoryStore, userId: string, purpose: Purpose = 'all'): AccountRecord[] {
  return [...store.accounts.values()].filter((a) => a.userId === userId && accountIncluded(a, purpose));
}

export interface Tx {
  rec: TransactionRecord;
  amount: Dec;
  /** 00:00 UTC of the booked date. */
  date: number;
}

/** The user's transactions on included accounts, oldest first. */
export function userTransactions(store: MemoryStore, userId: string, purpose: Purpose): Tx[] {
  const ok = new Set(userAccounts(store, userId, purpose).map((a) => a.id));
  const out: Tx[] = [];
  for (const t of store.transactions.ofUser(userId)) {
    if (!ok.has(t.accountId)) continue;
    let amount: Dec;
    try {
      amount = dec(t.amount);
    } catch {
      continue;
    }
    const date = parseIsoDate(t.bookedDate);
    if (date === undefined) continue;
    out.push({ rec: t, amount, date });
  }
  out.sort((a, b) => a.date - b.date || a.rec.seq - b.rec.seq);
  return out;
}

/** The currency most of the user's accounts hold (statistics and insights count only it). */
export function mainCurrency(accounts: AccountRecord[], fallback = 'SEK'): string {
  const count = new Map<string, number>();
  for (const a of accounts) count.set(a.currencyCode, (count.get(a.currencyCode) ?? 0) + 1);
  let best = fallback;
  let n = 0;
  for (const [c, k] of count) if (k > n) [best, n] = [c, k];
  return best;
}

/** Tags of a transaction: words starting with # in its notes and description. */
export function tagsOf(t: TransactionRecord): string[] {
  const text = `${t.notes ?? ''} ${t.description} ${t.originalDescription}`;
  return [...text.matchAll(/#([\p{L}\p{N}_-]+)/gu)].map((m) => m[1]!.toLowerCase());
}

import { categoryById, primaryOf, type Category, type CategoryType } from '../categories.js';

/** The leaf category of a transaction, if the catalogue knows it. */
export function txCategory(t: Tx): Category | undefined {
  return t.rec.categoryId ? categoryById(t.rec.categoryId) : undefined;
}

export function txPrimary(t: Tx): Category | undefined {
  const c = txCategory(t);
  return c ? primaryOf(c) : undefined;
}

/** INCOME, EXPENSES or TRANSFER: the category's type, else the sign of the amount. */
export function txType(t: Tx): CategoryType {
  return txCategory(t)?.type ?? (t.amount.u < 0n ? 'EXPENSES' : 'INCOME');
}
