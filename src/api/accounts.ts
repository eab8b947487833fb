// Accounts, balances and balance refresh (spec 2.3, 2.6, 4.1). Amounts that the service sends as JSON
// numbers arrive here as exact decimal strings (exact-json.ts).
import type { ApiClient } from './client.js';
import { parseExactJson } from './exact-json.js';

export const ACCOUNT_TYPES = [
  'CHECKING',
  'SAVINGS',
  'INVESTMENT',
  'MORTGAGE',
  'CREDIT_CARD',
  'LOAN',
  'PENSION',
  'OTHER',
  'EXTERNAL',
] as const;
export const ACCOUNT_EXCLUSIONS = ['NONE', 'AGGREGATION', 'PFM_AND_SEARCH', 'PFM_DATA'] as const;

export interface Account {
  id: string;
  name?: string;
  accountNumber?: string;
  type?: string;
  /** Exact decimal text (the JSON number's literal). */
  balance?: string | null;
  currencyDenominatedBalance?: { unscaledValue: string | number; scale: string | number; currencyCode: string } | null;
  accountExclusion?: string;
  excluded?: boolean;
  favored?: boolean;
  credentialsId?: string | null;
  [k: string]: unknown;
}

export interface AccountUpdate {
  name?: string;
  accountNumber?: string;
  type?: string;
  accountExclusion?: string;
  favored?: boolean;
}

export interface ExactAmountWire {
  currencyCode: string;
  value: { scale: string; unscaledValue: string };
}

export interface Balances {
  accountId: string;
  balances: Record<string, { amount: ExactAmountWire } | undefined>;
  refreshed?: number;
  [k: string]: unknown;
}

async function getText(api: ApiClient, o: Parameters<ApiClient['call']>[0]): Promise<string> {
  return (await api.call<string>({ ...o, responseType: 'text' })).data;
}

export async function listAccounts(api: ApiClient): Promise<Account[]> {
  const body = parseExactJson<{ accounts?: Account[] }>(
    await getText(api, { method: 'GET', path: '/api/v1/accounts/list' }),
  );
  return body?.accounts ?? [];
}

export async function updateAccount(api: ApiClient, id: string, update: AccountUpdate): Promise<Account> {
  return parseExactJson<Account>(
    await getText(api, { method: 'PUT', path: `/api/v1/accounts/${encodeURIComponent(id)}`, json: update }),
  );
}

export async function getBalances(api: ApiClient, id: string): Promise<Balances> {
  return parseExactJson<Balances>(
    await getText(api, { method: 'GET', path: `/api/v1/accounts/${encodeURIComponent(id)}/balances` }),
  );
}

export interface BalanceRefresh {
  balanceRefreshId: string;
  credentialId?: string;
  [k: string]: unknown;
}

export async function createBalanceRefresh(api: ApiClient, accountId: string): Promise<BalanceRefresh> {
  return api.data<BalanceRefresh>({ method: 'POST', path: '/api/v1/balance-refresh', json: { accountId } });
}

export async function getBalanceRefresh(
  api: ApiClient,
  refreshId: string,
): Promise<{ status: string; [k: string]: unknown }> {
  return api.data({ method: 'GET', path: `/api/v1/balance-refresh/${encodeURIComponent(refreshId)}` });
}
