// Transactions v2 (spec 2.4, 4.7): pages as an async iterator. The next page is requested while the
// caller is still busy with the current one (at most two pages in memory), and a nextPageToken that
// comes back twice stops the walk instead of looping.
import { EP } from '../contract/index.js';
import type { ExactAmountWire } from '../contract/decimal.js';
import { writeJson } from '../contract/exact-json.js';
import { decodeResponse, notWhatItReturns, type ApiClient } from './client.js';
import { prefetchPages } from './paging.js';
import type { HttpResponse } from '../http/client.js';

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

export function transactionQuery(
  f: TransactionFilter,
  pageToken?: string,
): Record<string, string | string[] | number | undefined> {
  return {
    accountIdIn: f.accountIds && f.accountIds.length > 0 ? f.accountIds : undefined,
    statusIn: f.statuses && f.statuses.length > 0 ? f.statuses : undefined,
    bookedDateGte: f.from,
    bookedDateLte: f.to,
    pageSize: f.pageSize,
    pageToken: pageToken || undefined,
  };
}

export async function transactionPage(
  api: ApiClient,
  f: TransactionFilter,
  pageToken?: string,
): Promise<TransactionPage> {
  const res = await api.call<Partial<TransactionPage>>(EP.transactions.list, { query: transactionQuery(f, pageToken) });
  return checkedPage(res);
}

/** A page must hold a transactions array: anything else is not what the endpoint returns. */
function checkedPage(res: HttpResponse<Partial<TransactionPage> | undefined>): TransactionPage {
  const data = res.data;
  if (!data || !Array.isArray(data.transactions))
    throw notWhatItReturns(EP.transactions.list, res, 'no transactions list', '');
  return {
    transactions: data.transactions,
    nextPageToken: typeof data.nextPageToken === 'string' ? data.nextPageToken : '',
  };
}

/** Every page from the first (or from `startToken`) to the last, or only the first when !all. */
export function transactionPages(
  api: ApiClient,
  f: TransactionFilter,
  o: { all: boolean; startToken?: string },
): AsyncGenerator<TransactionPage> {
  return prefetchPages((token) => transactionPage(api, f, token), o);
}

/** A page kept as text: its transactions as NDJSON lines (no parse and re-serialise). */
export interface RawTransactionPage {
  /** One compact JSON object per line, each ending in "\n". */
  lines: string[];
  nextPageToken: string;
}

// Characters a compact JSON document may hold outside strings.
const STRUCTURAL = new Uint8Array(128);
for (const c of '{}[]:,0123456789-+.eEtrufalsn') STRUCTURAL[c.charCodeAt(0)] = 1;

/**
 * Splits a compact page {"transactions":[...],"nextPageToken":"..."} into the transactions' own text,
 * tracking strings and depth. Undefined when the text is not a compact page of that shape (pretty
 * printed, another layout, stray characters): the caller then parses it the ordinary way.
 */
export function splitTransactionPage(text: string): RawTransactionPage | undefined {
  const n = text.length;
  let i = 0;
  let depth = 0;
  let key: string | undefined;
  let expectKey = false;
  const lines: string[] = [];
  let nextPageToken: string | undefined;
  let sawTransactions = false;
  let itemStart = -1;
  let inTransactions = false;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // a string: find its end
      const s = i;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92) i += 2;
        else if (d === 34) break;
        else if (d < 32) return undefined;
        else i++;
      }
      if (i >= n) return undefined;
      i++;
      if (depth === 1 && expectKey) {
        key = JSON.parse(text.slice(s, i)) as string;
        expectKey = false;
      } else if (depth === 1 && key === 'nextPageToken') {
        nextPageToken = JSON.parse(text.slice(s, i)) as string;
      }
      continue;
    }
    if (c >= 128 || !STRUCTURAL[c]) return undefined;
    if (c === 123 || c === 91) {
      depth++;
      if (depth === 1 && c !== 123) return undefined;
      if (depth === 1) expectKey = true;
      if (depth === 2 && key === 'transactions') {
        if (c !== 91) return undefined;
        inTransactions = true;
        sawTransactions = true;
        itemStart = i + 1;
      }
    } else if (c === 125 || c === 93) {
      if (inTransactions && depth === 2) {
        if (i > itemStart) lines.push(`${text.slice(itemStart, i)}\n`);
        inTransactions = false;
      }
      depth--;
      if (depth < 0) return undefined;
    } else if (c === 44) {
      if (depth === 1) expectKey = true;
      else if (inTransactions && depth === 2) {
        lines.push(`${text.slice(itemStart, i)}\n`);
        itemStart = i + 1;
      }
    }
    i++;
  }
  if (depth !== 0 || !sawTransactions) return undefined;
  for (const l of lines) if (l.charCodeAt(0) !== 123) return undefined;
  return { lines, nextPageToken: nextPageToken ?? '' };
}

async function rawPage(api: ApiClient, f: TransactionFilter, pageToken?: string): Promise<RawTransactionPage> {
  const res = await api.text(EP.transactions.list, { query: transactionQuery(f, pageToken) });
  const fast = splitTransactionPage(res.data);
  if (fast) return fast;
  const page = checkedPage({ ...res, data: decodeResponse(EP.transactions.list, res) as Partial<TransactionPage> });
  return { lines: page.transactions.map((t) => `${writeJson(t)}\n`), nextPageToken: page.nextPageToken };
}

/** Like transactionPages, for NDJSON output: each transaction's text as the service sent it. */
export function rawTransactionPages(
  api: ApiClient,
  f: TransactionFilter,
  o: { all: boolean; startToken?: string },
): AsyncGenerator<RawTransactionPage> {
  return prefetchPages((token) => rawPage(api, f, token), o);
}
