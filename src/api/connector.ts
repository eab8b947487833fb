// The connector (connector-api.md section 4): typed calls over ApiClient. Bodies are sent as
// exact JSON text (writeJson) so amounts keep the digits they were given.
import { EP } from '../contract/index.js';
import type { UserEntity } from '../contract/connector-wire.js';
import { decodeResponse, type ApiClient, type CallParams } from './client.js';

/** A body given as text goes as is; an object is written exactly. */
function exact(body: unknown): Pick<CallParams, 'body' | 'json'> {
  return typeof body === 'string' ? { body } : { json: body };
}

/** The UserEntity of connector-api.md 2.1, as the wire validation (shared with the sandbox) reads it. */
export type ConnectorUser = UserEntity;

export async function createConnectorUser(api: ApiClient, user: ConnectorUser): Promise<void> {
  await api.call(EP.connector.createUser, exact(user));
}

export async function updateConnectorUser(api: ApiClient, externalUserId: string, user: ConnectorUser): Promise<void> {
  await api.call(EP.connector.updateUser, { path: { externalUserId }, ...exact(user) });
}

export async function deleteConnectorUser(api: ApiClient, externalUserId: string): Promise<void> {
  await api.call(EP.connector.deleteUser, { path: { externalUserId } });
}

/** POST the user's accounts in one batch ({accounts: [AccountEntity...]}, as text or object). */
export async function pushAccounts(api: ApiClient, externalUserId: string, body: unknown): Promise<void> {
  await api.call(EP.connector.createAccounts, { path: { externalUserId }, ...exact(body) });
}

export async function updateConnectorAccount(
  api: ApiClient,
  externalUserId: string,
  externalAccountId: string,
  body: { name?: string; closed?: boolean; exclusion?: string },
): Promise<void> {
  await api.call(EP.connector.updateAccount, { path: { externalUserId, externalAccountId }, ...exact(body) });
}

export async function deleteConnectorAccount(
  api: ApiClient,
  externalUserId: string,
  externalAccountId: string,
): Promise<void> {
  await api.call(EP.connector.deleteAccount, { path: { externalUserId, externalAccountId } });
}

/**
 * Ingests one CreateTransactionAccountContainer (already serialised). Safe to resend: the service
 * keys transactions by externalId, so the HTTP core may retry it on 429, 5xx and network errors.
 */
export async function ingestTransactions(
  api: ApiClient,
  externalUserId: string,
  body: string | Buffer,
  signal?: AbortSignal,
): Promise<void> {
  await api.call(EP.connector.ingestTransactions, { path: { externalUserId }, body, idempotent: true, signal });
}

export async function deleteTransactions(api: ApiClient, externalUserId: string, body: unknown): Promise<void> {
  await api.call(EP.connector.deleteTransactions, { path: { externalUserId }, ...exact(body), idempotent: false });
}

export async function updateTransaction(
  api: ApiClient,
  externalUserId: string,
  externalTransactionId: string,
  body: unknown,
): Promise<void> {
  await api.call(EP.connector.updateTransaction, { path: { externalUserId, externalTransactionId }, ...exact(body) });
}

export interface BatchStatus {
  entityId: string;
  httpStatus: number;
  response?: unknown;
}

export async function ingestBatch(api: ApiClient, body: unknown): Promise<{ statuses: BatchStatus[] }> {
  return api.data<{ statuses: BatchStatus[] }>(EP.connector.batch, { ...exact(body), idempotent: true });
}

export interface GeneratedToken {
  token: string;
  expiry: number;
}

export async function generateToken(
  api: ApiClient,
  req: { userId: string; scopes: string[]; ttl?: number; origin?: string },
): Promise<GeneratedToken> {
  return api.data<GeneratedToken>(EP.connector.generateToken, { json: req });
}

export interface V2Transaction {
  id: string;
  accountId: string;
  amount: { currencyCode?: string; value: { scale: string | number; unscaledValue: string | number } };
  status?: string;
  identifiers?: { providerTransactionId?: string };
  [k: string]: unknown;
}

/** One page of /data/v2/transactions, with a given bearer token or the caller's own auth. */
export async function transactionsPage(
  api: ApiClient,
  query: Record<string, string | string[] | number | undefined>,
  bearer?: string,
): Promise<{ transactions: V2Transaction[]; nextPageToken?: string }> {
  const data = await api.data<{ transactions: V2Transaction[]; nextPageToken?: string }>(EP.transactions.list, {
    query,
    auth: bearer ? { scheme: 'Bearer', token: bearer } : undefined,
  });
  return data ?? { transactions: [] };
}

/** Whether JSON.parse kept every amount exact (a number beyond 2^53 may have been rounded). */
function amountsExact(ts: V2Transaction[]): boolean {
  for (const t of ts) {
    const v = t.amount?.value;
    if (typeof v?.unscaledValue === 'number' && !Number.isSafeInteger(v.unscaledValue)) return false;
  }
  return true;
}

/**
 * The same page for a reader that needs only a few fields of each transaction (verify): the body
 * text parsed natively, falling back to the exact reader when a number literal is too long for that.
 */
export async function transactionsPageFast(
  api: ApiClient,
  query: Record<string, string | string[] | number | undefined>,
  bearer?: string,
): Promise<{ transactions: V2Transaction[]; nextPageToken?: string }> {
  const res = await api.text(EP.transactions.list, {
    query,
    auth: bearer ? { scheme: 'Bearer', token: bearer } : undefined,
  });
  try {
    const page = JSON.parse(res.data) as { transactions?: V2Transaction[]; nextPageToken?: string };
    if (page && Array.isArray(page.transactions) && amountsExact(page.transactions))
      return { transactions: page.transactions, nextPageToken: page.nextPageToken };
  } catch {
    // the exact reader says what is wrong with it
  }
  const data = decodeResponse(EP.transactions.list, res) as
    { transactions?: V2Transaction[]; nextPageToken?: string } | undefined;
  return { transactions: data?.transactions ?? [], nextPageToken: data?.nextPageToken };
}

export interface V1Account {
  id: string;
  externalId?: string;
  name?: string;
  accountNumber?: string;
  [k: string]: unknown;
}

export async function listAccounts(api: ApiClient, bearer?: string): Promise<V1Account[]> {
  const data = await api.data<{ accounts?: V1Account[] }>(EP.accounts.list, {
    auth: bearer ? { scheme: 'Bearer', token: bearer } : undefined,
  });
  return data?.accounts ?? [];
}
