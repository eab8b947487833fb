// Accounts, balances and balance refresh (spec 2.3, 2.6, 4.1). Amounts the service sends as JSON
// numbers keep their digits (the client reads every answer with contract/exact-json.ts).
import { EP } from '../contract/index.js';
import type { ExactNumber } from '../contract/exact-json.js';
import type { ExactAmountWire } from '../contract/decimal.js';
import type { ApiClient } from './client.js';
import { isObject, kindOf, notTheShape, objectBody, readCreated, readList, readObject } from './shape.js';

export type { ExactAmountWire } from '../contract/decimal.js';

/** A JSON number as read: a plain number when a double holds its digits, else its literal. */
export type JsonNumber = number | ExactNumber;

export const ACCOUNT_EXCLUSIONS = ['NONE', 'AGGREGATION', 'PFM_AND_SEARCH', 'PFM_DATA'] as const;

export interface Account {
  id: string;
  name?: string;
  accountNumber?: string;
  type?: string;
  balance?: JsonNumber | null;
  currencyDenominatedBalance?: {
    unscaledValue: string | JsonNumber;
    scale: string | JsonNumber;
    currencyCode: string;
  } | null;
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

/** v1 balances as the reference sends them: flat, integers as JSON numbers (data v1, Get balances). */
export interface FlatBalance {
  currencyCode: string;
  scale: JsonNumber | string;
  unscaledValue: JsonNumber | string;
}

export interface Balances {
  accountId: string;
  /** `available`, `booked`, `creditLimit`: the reference's flat shape, or the spec's `{amount}`. */
  balances: Record<string, FlatBalance | { amount: ExactAmountWire } | undefined>;
  refreshed?: number;
  [k: string]: unknown;
}

/** The user's accounts: `{accounts: [...]}`, checked (src/api/shape.ts): anything else is exit 7, never []. */
export async function listAccounts(api: ApiClient): Promise<Account[]> {
  return readList<Account>(api, EP.accounts.list, 'accounts');
}

export async function updateAccount(api: ApiClient, id: string, update: AccountUpdate): Promise<Account> {
  return readObject<Account>(api, EP.accounts.update, { path: { id }, json: update });
}

/** An account's balances: a JSON object; its `balances`, when sent, an object of balances (exit 7 otherwise). */
export async function getBalances(api: ApiClient, id: string): Promise<Balances> {
  const ep = EP.accounts.balances;
  const res = await api.call(ep, { path: { id } });
  const body = objectBody<Balances>(ep, res);
  if (body.balances !== undefined && !isObject(body.balances))
    throw notTheShape(ep, res, `balances that are not an object (balances is ${kindOf(body.balances)})`);
  return body;
}

export interface BalanceRefresh {
  balanceRefreshId: string;
  /** The reference's name; `credentialId` is the spec's. */
  credentialsId?: string;
  credentialId?: string;
  [k: string]: unknown;
}

export async function createBalanceRefresh(api: ApiClient, accountId: string): Promise<BalanceRefresh> {
  return readCreated<BalanceRefresh>(api, EP.balanceRefresh.create, 'balanceRefreshId', { json: { accountId } });
}

export async function getBalanceRefresh(
  api: ApiClient,
  refreshId: string,
): Promise<{ status: string; [k: string]: unknown }> {
  return readObject(api, EP.balanceRefresh.status, { path: { refreshId } });
}
