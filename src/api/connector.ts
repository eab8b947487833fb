// The connector (connector-api.md section 4): typed calls over ApiClient. Bodies are sent as
// exact JSON text (stringifyExact) so amounts keep the digits they were given.
import type { ApiClient } from './client.js';
import type { HttpResponse } from '../http/client.js';
import { stringifyExact, type UserEntity } from './connector-wire.js';

const enc = encodeURIComponent;

function exact(body: unknown): { body: string; contentType: string } {
  return { body: typeof body === 'string' ? body : stringifyExact(body), contentType: 'application/json' };
}

/** The UserEntity of connector-api.md 2.1, as the wire validation (shared with the sandbox) reads it. */
export type ConnectorUser = UserEntity;

export async function createConnectorUser(api: ApiClient, user: ConnectorUser): Promise<void> {
  await api.call({ method: 'POST', path: '/connector/users', ...exact(user) });
}

export async function updateConnectorUser(api: ApiClient, externalUserId: string, user: ConnectorUser): Promise<void> {
  await api.call({ method: 'PUT', path: `/connector/users/${enc(externalUserId)}`, ...exact(user) });
}

export async function deleteConnectorUser(api: ApiClient, externalUserId: string): Promise<void> {
  await api.call({ method: 'DELETE', path: `/connector/users/${enc(externalUserId)}` });
}

/** POST the user's accounts in one batch ({accounts: [AccountEntity...]}, as text or object). */
export async function pushAccounts(api: ApiClient, externalUserId: string, body: unknown): Promise<void> {
  await api.call({ method: 'POST', path: `/connector/users/${enc(externalUserId)}/accounts`, ...exact(body) });
}

export async function updateConnectorAccount(
  api: ApiClient,
  externalUserId: string,
  externalAccountId: string,
  body: { name?: string; closed?: boolean; exclusion?: string },
): Promise<void> {
  await api.call({
    method: 'PUT',
    path: `/connector/users/${enc(externalUserId)}/accounts/${enc(externalAccountId)}`,
    ...exact(body),
  });
}

export async function deleteConnectorAccount(
  api: ApiClient,
  externalUserId: string,
  externalAccountId: string,
): Promise<void> {
  await api.call({
    method: 'DELETE',
    path: `/connector/users/${enc(externalUserId)}/accounts/${enc(externalAccountId)}`,
  });
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
  await api.call({
    method: 'POST',
    path: `/connector/users/${enc(externalUserId)}/transactions`,
    body,
    contentType: 'application/json',
    idempotent: true,
    signal,
  });
}

export async function deleteTransactions(api: ApiClient, externalUserId: string, body: unknown): Promise<void> {
  await api.call({
    method: 'POST',
    path: `/connector/users/${enc(externalUserId)}/transactions/delete`,
    ...exact(body),
    idempotent: false,
  });
}

export async function updateTransaction(
  api: ApiClient,
  externalUserId: string,
  externalTransactionId: string,
  body: unknown,
): Promise<void> {
  await api.call({
    method: 'PUT',
    path: `/connector/users/${enc(externalUserId)}/transactions/${enc(externalTransactionId)}`,
    ...exact(body),
  });
}

export interface BatchStatus {
  entityId: string;
  httpStatus: number;
  response?: unknown;
}

export async function ingestBatch(api: ApiClient, body: unknown): Promise<{ statuses: BatchStatus[] }> {
  return api.data<{ statuses: BatchStatus[] }>({
    method: 'POST',
    path: '/connector/batch',
    ...exact(body),
    idempotent: true,
  });
}

export interface GeneratedToken {
  token: string;
  expiry: number;
}

export async function generateToken(
  api: ApiClient,
  req: { userId: string; scopes: string[]; ttl?: number; origin?: string },
): Promise<GeneratedToken> {
  return api.data<GeneratedToken>({ method: 'POST', path: '/connector/v2/tokens/generate', json: req });
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
  const o = { method: 'GET', path: '/data/v2/transactions', query };
  const res: HttpResponse<{ transactions: V2Transaction[]; nextPageToken?: string }> = bearer
    ? await api.http.request({ ...o, auth: { scheme: 'Bearer', token: bearer } })
    : await api.call(o);
  return res.data ?? { transactions: [] };
}

export interface V1Account {
  id: string;
  externalId?: string;
  name?: string;
  accountNumber?: string;
  [k: string]: unknown;
}

export async function listAccounts(api: ApiClient, bearer?: string): Promise<V1Account[]> {
  const o = { method: 'GET', path: '/api/v1/accounts/list' };
  const res: HttpResponse<{ accounts?: V1Account[] }> = bearer
    ? await api.http.request({ ...o, auth: { scheme: 'Bearer', token: bearer } })
    : await api.call(o);
  return res.data?.accounts ?? [];
}
