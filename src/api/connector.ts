// The connector (connector-api.md section 4): typed calls over ApiClient. Bodies are sent as
// exact JSON text (writeJson) so amounts keep the digits they were given.
import { EP } from '../contract/index.js';
import type { UserEntity } from '../contract/connector-wire.js';
import { decodeResponse, notWhatItReturns, type ApiClient, type CallParams } from './client.js';
import type { HttpResponse } from '../http/client.js';
import { ExactNumber } from '../contract/exact-json.js';
import { ApiError } from '../errors.js';
import { scanTransactionsPage, type SlimPage, type SlimTransaction } from './page-scan.js';
import { readCreated, readList } from './shape.js';

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

/**
 * POST the user's accounts in one batch ({accounts: [AccountEntity...]}, as text or object). Sent
 * again after a 429, a 5xx or a dropped connection: an attempt that stored them makes the next one
 * a 409, which pushAccountsOnce below tells from accounts that were there before where it can.
 */
export async function pushAccounts(
  api: ApiClient,
  externalUserId: string,
  body: unknown,
  o: Pick<CallParams, 'onAbandoned' | 'onAnswer'> = {},
): Promise<void> {
  await api.call(EP.connector.createAccounts, { path: { externalUserId }, ...exact(body), idempotent: true, ...o });
}

/**
 * pushAccounts, where a 409 after an attempt that may have stored the accounts (one that got no
 * answer, or a 5xx) can be that attempt's own doing: 'maybe-earlier'. Not after a 429 (it stored
 * nothing), not when the 409 names only some of the accounts sent (one call stores all or none, so
 * a part that is there was there before), and never on the first attempt: those stay the 409.
 */
export async function pushAccountsOnce(
  api: ApiClient,
  externalUserId: string,
  body: { accounts: unknown[] },
): Promise<'sent' | 'maybe-earlier'> {
  // an attempt without an answer, or answered 5xx (the 409 that ends the call is not one)
  let mayHaveStored = false;
  try {
    await pushAccounts(api, externalUserId, body, {
      onAbandoned: () => (mayHaveStored = true),
      onAnswer: (status) => {
        if (status >= 500) mayHaveStored = true;
      },
    });
    return 'sent';
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 409 || !mayHaveStored) throw err;
    const there = err.namedExternalIds();
    if (there && !body.accounts.every((a) => there.has((a as { externalId: string }).externalId))) throw err;
    return 'maybe-earlier';
  }
}

export async function updateConnectorAccount(
  api: ApiClient,
  externalUserId: string,
  externalAccountId: string,
  body: { name?: string; closed?: boolean; exclusion?: string; type?: string; availableCredit?: string },
): Promise<void> {
  // availableCredit is an exact decimal: a JSON number with its own digits (json is written exactly)
  const wire =
    body.availableCredit === undefined ? body : { ...body, availableCredit: new ExactNumber(body.availableCredit) };
  await api.call(EP.connector.updateAccount, { path: { externalUserId, externalAccountId }, ...exact(wire) });
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
  o: { signal?: AbortSignal; onBodyDone?: () => void; onAttempt?: () => void; onAbandoned?: () => void } = {},
): Promise<void> {
  await api.call(EP.connector.ingestTransactions, { path: { externalUserId }, body, idempotent: true, ...o });
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

/**
 * POST /connector/batch. Sent again after a 429, a 5xx or a dropped connection (each entity is all
 * or nothing and keyed by externalId); `mayHaveStored` says an attempt before the answered one got
 * no answer or a 5xx, so a 409 in the answer can be that attempt's own doing.
 */
export async function ingestBatch(
  api: ApiClient,
  body: unknown,
): Promise<{ statuses: BatchStatus[]; mayHaveStored: boolean }> {
  let mayHaveStored = false;
  const statuses = await readList<BatchStatus>(api, EP.connector.batch, 'statuses', {
    ...exact(body),
    idempotent: true,
    onAbandoned: () => (mayHaveStored = true),
    // the answer read is a 200: a 5xx seen was an earlier attempt's
    onAnswer: (status) => {
      if (status >= 500) mayHaveStored = true;
    },
  });
  return { statuses, mayHaveStored };
}

export interface GeneratedToken {
  token: string;
  expiry: number;
}

export async function generateToken(
  api: ApiClient,
  req: { userId: string; scopes: string[]; ttl?: number; origin?: string },
): Promise<GeneratedToken> {
  // a token more or less has no effect: safe to send again after a 5xx or a dropped connection;
  // an answer without one is exit 7, not "undefined" in TOKEN=$(bankctl connector token ...)
  return readCreated<GeneratedToken>(api, EP.connector.generateToken, 'token', { json: req, idempotent: true });
}

export interface V2Transaction {
  id: string;
  accountId: string;
  amount: { currencyCode?: string; value: { scale: string | number; unscaledValue: string | number } };
  status?: string;
  identifiers?: { providerTransactionId?: string };
  [k: string]: unknown;
}

/**
 * One page of /data/v2/transactions (with a given bearer token or the caller's own auth), for a
 * reader that needs only each transaction's account, amount and one identifier
 * (verify): scanned from the body's bytes (api/page-scan.ts), or, when the body is anything but plain,
 * read by the exact reader, which keeps every digit and says what is wrong with a body that is not
 * the endpoint's.
 */
export async function transactionsPageFast(
  api: ApiClient,
  query: Record<string, string | string[] | number | undefined>,
  bearer?: string,
): Promise<SlimPage> {
  const res = await api.bytes(EP.transactions.list, {
    query,
    auth: bearer ? { scheme: 'Bearer', token: bearer } : undefined,
  });
  const page = scanTransactionsPage(res.data) ?? exactPage(res);
  for (const t of page.transactions)
    if (!INTEGER.test(String(t.unscaledValue)) || !SCALE.test(String(t.scale)))
      throw notWhatItReturns(
        EP.transactions.list,
        res,
        `an amount that is not an unscaled integer and a scale (${String(t.unscaledValue).slice(0, 40)}, ${String(t.scale).slice(0, 10)})`,
        res.data,
      );
  return page;
}

const INTEGER = /^-?\d{1,400}$/;
const SCALE = /^\d{1,2}$/;

/** The page by the exact reader: numbers as written, and a transaction without what verify reads is an error. */
function exactPage(res: HttpResponse<Buffer>): SlimPage {
  const ep = EP.transactions.list;
  const data = decodeResponse(ep, res) as { transactions?: unknown; nextPageToken?: unknown } | undefined;
  const list = data?.transactions ?? [];
  if (!Array.isArray(list)) throw notWhatItReturns(ep, res, 'transactions that are not a list', res.data);
  const part = (x: unknown) =>
    typeof x === 'string' || typeof x === 'number' ? x : x instanceof ExactNumber ? x.text : undefined;
  const transactions = list.map((t: Partial<V2Transaction> | null): SlimTransaction => {
    const v = t?.amount?.value;
    const unscaledValue = part(v?.unscaledValue);
    const scale = part(v?.scale);
    if (typeof t?.accountId !== 'string' || unscaledValue === undefined || scale === undefined)
      throw notWhatItReturns(
        ep,
        res,
        'a transaction without accountId or amount.value {unscaledValue, scale}',
        res.data,
      );
    const id = t.identifiers?.providerTransactionId;
    return {
      accountId: t.accountId,
      unscaledValue,
      scale,
      ...(typeof id === 'string' ? { providerTransactionId: id } : {}),
    };
  });
  const next = data?.nextPageToken;
  return { transactions, ...(typeof next === 'string' ? { nextPageToken: next } : {}) };
}

export interface V1Account {
  id: string;
  externalId?: string;
  name?: string;
  accountNumber?: string;
  [k: string]: unknown;
}

export async function listAccounts(api: ApiClient, bearer?: string): Promise<V1Account[]> {
  return readList<V1Account>(api, EP.accounts.list, 'accounts', {
    auth: bearer ? { scheme: 'Bearer', token: bearer } : undefined,
  });
}
