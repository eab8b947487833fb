// Data v2 reads (the vendor reference's api-data-v2 page) and a pager any paged endpoint shares:
// pages as an async iterator, the next page requested while the caller writes the current one (at
// most two pages in memory), and a nextPageToken the walk was given before stops it (api/paging.ts).
import { EP, type Endpoint } from '../contract/index.js';
import { nextPageTokenProblem, prefetchPages } from './paging.js';
import type { QueryValue } from '../http/client.js';
import { notWhatItReturns, type ApiClient } from './client.js';
import { listIn, readList, readObject } from './shape.js';

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

/** One page; `all`: pages are being followed, so a page without a nextPageToken is not taken as the last. */
export async function readPage(api: ApiClient, r: PagedRead, pageToken?: string, all = false): Promise<Page> {
  const query: Record<string, QueryValue> = { ...r.query };
  if (r.pageSize !== undefined) query[r.sizeParam ?? 'pageSize'] = r.pageSize;
  if (pageToken) query[r.tokenParam ?? 'pageToken'] = pageToken;
  const res = await api.call<Record<string, unknown> | undefined>(r.ep, { path: r.path, query });
  const items = listIn(r.ep, res, r.key);
  const next = res.data?.nextPageToken;
  const problem = nextPageTokenProblem(next, all);
  if (problem) throw notWhatItReturns(r.ep, res, problem, '');
  return { items, nextPageToken: typeof next === 'string' ? next : '' };
}

/** Every page from the first (or from `startToken`) to the last, or only the first when !all. */
export function pages(api: ApiClient, r: PagedRead, o: { all: boolean; startToken?: string }): AsyncGenerator<Page> {
  return prefetchPages((token) => readPage(api, r, token, o.all), {
    ...o,
    what: `${r.ep.method} ${r.ep.path}`,
    size: (p) => p.items.length,
  });
}

/** A JSON object answer, or a ServerError naming what came instead. */
const object = (api: ApiClient, ep: Endpoint, path?: Record<string, string>): Promise<Item> =>
  readObject(api, ep, { path });

/** The list of objects under `key` of a JSON object answer, or a ServerError naming what came instead. */
const list = (api: ApiClient, ep: Endpoint, key: string, path?: Record<string, string>): Promise<Item[]> =>
  readList(api, ep, key, { path });

export const getAccountV2 = (api: ApiClient, id: string) => object(api, EP.dataV2.account, { id });
export const getBalancesV2 = (api: ApiClient, id: string) => object(api, EP.dataV2.accountBalances, { id });
export const getParties = (api: ApiClient, id: string) => list(api, EP.dataV2.accountParties, 'parties', { id });
export const listIdentitiesV2 = (api: ApiClient) => list(api, EP.dataV2.identities, 'identities');
export const listInvestmentAccounts = (api: ApiClient) => list(api, EP.dataV2.investmentAccounts, 'investmentAccounts');
export const getInvestmentAccount = (api: ApiClient, id: string) => object(api, EP.dataV2.investmentAccount, { id });
export const listLoanAccounts = (api: ApiClient) => list(api, EP.dataV2.loanAccounts, 'loanAccounts');
export const getLoanAccount = (api: ApiClient, id: string) => object(api, EP.dataV2.loanAccount, { id });
export const getTransactionReport = (api: ApiClient, id: string) => object(api, EP.dataV2.transactionReport, { id });
