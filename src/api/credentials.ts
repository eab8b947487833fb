// Credentials (spec 4.4) and provider consents (spec 2.5).
import { EP } from '../contract/index.js';
import { CREDENTIALS_ERROR_STATUSES, CREDENTIALS_STATUSES } from '../contract/vocabulary.js';
import type { ApiClient } from './client.js';
import { readCreated, readList, readObject } from './shape.js';

/** Statuses that end a refresh in failure: the spec's two, the extra final ones the service documents, DELETED. */
export const FAILED_STATUSES: ReadonlySet<string> = new Set([...CREDENTIALS_ERROR_STATUSES, 'DELETED']);

/** The statuses that end a round: UPDATED and the failures. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['UPDATED', ...FAILED_STATUSES]);

/** Every status credentials can be in (the spec's, the service's extra final ones, both eID names). */
export { CREDENTIALS_STATUSES };

export interface Credentials {
  id: string;
  providerName: string;
  status: string;
  statusUpdated?: number | string | null;
  statusPayload?: string | null;
  updated?: number | string | null;
  type?: string;
  fields?: Record<string, string>;
  /** An array of fields, a serialized JSON string of them (or of a third-party payload), or a bare eID token. */
  supplementalInformation?: unknown;
  sessionExpiryDate?: number | null;
  userId?: string;
  [k: string]: unknown;
}

export interface CreateCredentialsRequest {
  providerName: string;
  fields: Record<string, string>;
  appUri?: string;
  callbackUri?: string;
  triggerRefresh?: boolean;
}

export interface RefreshOptions {
  items?: string[];
  optIn?: boolean;
  authenticate?: boolean;
}

export async function createCredentials(
  api: ApiClient,
  req: CreateCredentialsRequest,
  o: { items?: string[]; optIn?: boolean; signal?: AbortSignal } = {},
): Promise<Credentials> {
  return readCreated<Credentials>(api, EP.credentials.create, 'id', {
    json: req,
    query: { items: o.items && o.items.length > 0 ? o.items : undefined, optIn: o.optIn ? 'true' : undefined },
    signal: o.signal,
  });
}

export async function listCredentials(api: ApiClient): Promise<Credentials[]> {
  return readList<Credentials>(api, EP.credentials.list, 'credentials');
}

/** `signal` ends the request (and its retries) at once: Ctrl-C while a slow service is polled. */
export async function getCredentials(
  api: ApiClient,
  id: string,
  o: { signal?: AbortSignal } = {},
): Promise<Credentials> {
  return readObject<Credentials>(api, EP.credentials.get, { path: { id }, signal: o.signal });
}

export async function updateCredentials(
  api: ApiClient,
  id: string,
  req: { providerName?: string; fields?: Record<string, string>; appUri?: string; callbackUri?: string },
  o: { signal?: AbortSignal } = {},
): Promise<Credentials> {
  return readObject<Credentials>(api, EP.credentials.update, { path: { id }, json: req, signal: o.signal });
}

export async function deleteCredentials(api: ApiClient, id: string): Promise<void> {
  await api.call(EP.credentials.delete, { path: { id } });
}

export async function refreshCredentials(
  api: ApiClient,
  id: string,
  o: RefreshOptions & { appUri?: string; callbackUri?: string; signal?: AbortSignal } = {},
): Promise<void> {
  const body = o.appUri || o.callbackUri ? { appUri: o.appUri, callbackUri: o.callbackUri } : undefined;
  await api.call(EP.credentials.refresh, {
    path: { id },
    query: {
      items: o.items && o.items.length > 0 ? o.items : undefined,
      optIn: o.optIn ? 'true' : undefined,
      authenticate: o.authenticate ? 'true' : undefined,
    },
    json: body,
    signal: o.signal,
  });
}

export async function authenticateCredentials(
  api: ApiClient,
  id: string,
  req: { appUri?: string; callbackUri?: string } = {},
  o: { signal?: AbortSignal } = {},
): Promise<void> {
  await api.call(EP.credentials.authenticate, { path: { id }, json: req, signal: o.signal });
}

export async function supplementInformation(
  api: ApiClient,
  id: string,
  information: Record<string, string>,
  o: { signal?: AbortSignal } = {},
): Promise<void> {
  await api.call(EP.credentials.supplement, { path: { id }, json: { information }, signal: o.signal });
}

/** The eID QR code: `data:image/png;base64,...` as the service sends it (text/html). */
export async function credentialsQr(api: ApiClient, id: string): Promise<string> {
  return String(await api.data<string>(EP.credentials.qr, { path: { id } })).trim();
}

export interface ProviderConsent {
  credentialsId: string;
  providerName: string;
  status: string;
  accountIds?: string[];
  statusUpdated?: number;
  sessionExpiryDate?: number;
  detailedError?: { type?: string; displayMessage?: string; details?: { reason?: string; retryable?: boolean } };
  [k: string]: unknown;
}

export async function listProviderConsents(api: ApiClient): Promise<ProviderConsent[]> {
  return readList<ProviderConsent>(api, EP.consents.list, 'providerConsents');
}
