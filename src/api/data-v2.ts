// Data v2 reads (the vendor reference's api-data-v2 page) and a pager any paged endpoint shares:
// pages as an async iterator, the next page requested while the caller writes the current one (at
// most two pages in memory), and a nextPageToken that comes back twice stops the walk.
import { EP, type Endpoint } from '../contract/index.js';
import { prefetchPages } from './paging.js';
import type { QueryValue } from '../http/client.js';
import { notWhatItReturns, type ApiClient } from './client.js';

export const V2_ACCOUNT_TYPES = ['UNDEFINED', 'CHECKING', 'SAVINGS', 'CREDIT_CARD'] as const;
export const MAX_V2_PAGE_SIZE = 100;

export type Item = Record<string, unknown>;

export interface Page {
  items: Item[];
  nextPageToken: string;
}

export interface PagedRead {
  ep: Endpoint;
  /** The array the page holds its items in ("accounts", "holdings", "consents", ...). */
  key: string;
  path?: Record<string, string>;
  query?: Record<string, QueryValue>;
  /** The query parameter names of the page token and size (camelCase in data v2, snake_case in connectivity v2). */
  tokenParam?: string;
  sizeParam?: string;
  pageSize?: number;
}

export async function readPage(api: ApiClient, r: PagedRead, pageToken?: string): Promise<Page> {
  const query: Record<string, QueryValue> = { ...r.query };
  if (r.pageSize !== undefined) query[r.sizeParam ?? 'pageSize'] = r.pageSize;
  if (pageToken) query[r.tokenParam ?? 'pageToken'] = pageToken;
  const res = await api.call<Record<string, unknown> | undefined>(r.ep, { path: r.path, query });
  const items = res.data?.[r.key];
  if (!Array.isArray(items)) throw notWhatItReturns(r.ep, res, `no ${r.key} list`, '');
  const next = res.data?.nextPageToken;
  return { items: items as Item[], nextPageToken: typeof next === 'string' ? next : '' };
}

/** Every page from the first (or from `startToken`) to the last, or only the first when !all. */
export function pages(api: ApiClient, r: PagedRead, o: { all: boolean; startToken?: string }): AsyncGenerator<Page> {
  return prefetchPages((token) => readPage(api, r, token), o);
}

/** A JSON object answer, or a ServerError naming what came instead. */
async function object(api: ApiClient, ep: Endpoint, path?: Record<string, string>): Promise<Item> {
  const res = await api.call<unknown>(ep, { path });
  if (!res.data || typeof res.data !== 'object' || Array.isArray(res.data))
    throw notWhatItReturns(ep, res, 'no JSON object', '');
  return res.data as Item;
}

/** The array under `key` of a JSON object answer. */
async function list(api: ApiClient, ep: Endpoint, key: string, path?: Record<string, string>): Promise<Item[]> {
  const res = await api.call<Record<string, unknown> | undefined>(ep, { path });
  const items = res.data?.[key];
  if (!Array.isArray(items)) throw notWhatItReturns(ep, res, `no ${key} list`, '');
  return items as Item[];
}

export const getAccountV2 = (api: ApiClient, id: string) => object(api, EP.dataV2.account, { id });
export const getBalancesV2 = (api: ApiClient, id: string) => object(api, EP.dataV2.accountBalances, { id });
export const getParties = (api: ApiClient, id: string) => list(api, EP.dataV2.accountParties, 'parties', { id });
export const listIdentitiesV2 = (api: ApiClient) => list(api, EP.dataV2.identities, 'identities');
export const listInvestmentAccounts = (api: ApiClient) => list(api, EP.dataV2.investmentAccounts, 'investmentAccounts');
export const getInvestmentAccount = (api: ApiClient, id: string) => object(api, EP.dataV2.investmentAccount, { id });
export const listLoanAccounts = (api: ApiClient) => list(api, EP.dataV2.loanAccounts, 'loanAccounts');
export const getLoanAccount = (api: ApiClient, id: string) => object(api, EP.dataV2.loanAccount, { id });
export const getTransactionReport = (api: ApiClient, id: string) => object(api, EP.dataV2.transactionReport, { id });
