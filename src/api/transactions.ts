// Transactions v2 (spec 2.4, 4.7): pages as an async iterator. The next page is requested while the
// caller is still busy with the current one (at most two pages in memory), and a nextPageToken that
// comes back twice stops the walk instead of looping.
import type { ApiClient } from './client.js';
import { UsageError } from '../errors.js';
import type { ExactAmountWire } from './accounts.js';

export const TRANSACTION_STATUSES = ['BOOKED', 'PENDING', 'UNDEFINED'] as const;
export const MAX_PAGE_SIZE = 100;

export interface Transaction {
  id: string;
  accountId: string;
  amount: ExactAmountWire;
  categories?: { pfm?: { id?: string; name?: string } };
  dates?: { booked?: string; value?: string };
  descriptions?: { display?: string; original?: string };
  status?: string;
  [k: string]: unknown;
}

export interface TransactionPage {
  transactions: Transaction[];
  nextPageToken: string;
}

export interface TransactionFilter {
  accountIds?: string[];
  statuses?: string[];
  /** YYYY-MM-DD, inclusive */
  from?: string;
  to?: string;
  pageSize?: number;
}

export function transactionQuery(f: TransactionFilter, pageToken?: string): Record<string, string | string[] | number | undefined> {
  return {
    accountIdIn: f.accountIds && f.accountIds.length > 0 ? f.accountIds : undefined,
    statusIn: f.statuses && f.statuses.length > 0 ? f.statuses : undefined,
    bookedDateGte: f.from,
    bookedDateLte: f.to,
    pageSize: f.pageSize,
    pageToken: pageToken || undefined,
  };
}

export async function transactionPage(api: ApiClient, f: TransactionFilter, pageToken?: string): Promise<TransactionPage> {
  const data = await api.data<Partial<TransactionPage>>({ method: 'GET', path: '/data/v2/transactions', query: transactionQuery(f, pageToken) });
  return { transactions: Array.isArray(data?.transactions) ? data.transactions : [], nextPageToken: typeof data?.nextPageToken === 'string' ? data.nextPageToken : '' };
}

/** Every page from the first (or from `startToken`) to the last, or only the first when !all. */
export async function* transactionPages(api: ApiClient, f: TransactionFilter, o: { all: boolean; startToken?: string }): AsyncGenerator<TransactionPage> {
  let pending: Promise<TransactionPage> | undefined = transactionPage(api, f, o.startToken);
  let previous = o.startToken ?? '';
  while (pending) {
    const page: TransactionPage = await pending;
    pending = undefined;
    const next = page.nextPageToken;
    if (o.all && next) {
      if (next === previous) throw new UsageError('the service returned the same nextPageToken twice; stopping to avoid a loop');
      previous = next;
      pending = transactionPage(api, f, next);
      // a failure of the prefetch surfaces when it is awaited, not as an unhandled rejection
      pending.catch(() => undefined);
    }
    yield page;
  }
}
