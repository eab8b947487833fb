// Connectivity v2 consents (Beta in the vendor reference): create, read, list, revoke, templates,
// authorizations and the relayed callback. Each write sends an Idempotency-Key: given, or a random one
// per command run (so a retry of the same run is the same request to the service).
import { randomUUID } from 'node:crypto';
import { EP } from '../contract/index.js';
import { ApiError, shellWord } from '../errors.js';
import { envelopeCode } from '../http/error-body.js';
import { inProgressConflict } from '../http/retry.js';
import type { ApiClient } from './client.js';
import type { Item } from './data-v2.js';
import { readCreated, readList, readObject, readObjectMaybeIn } from './shape.js';

export const CONSENT_SUBTYPES = ['VRP_SWEEPING', 'VRP_COMMERCIAL'] as const;
export const PERIOD_TYPES = ['DAY', 'WEEK', 'FORTNIGHT', 'MONTH', 'HALF_YEAR', 'YEAR'] as const;

const key = (k?: string) => ({ 'idempotency-key': k ?? randomUUID() });

/**
 * A write with its Idempotency-Key. The HTTP core sends it again with that key while the service
 * answers 409 "still being processed" (--retries times); past that, the error says how to get the
 * first request's answer: the same command with --idempotency-key KEY (a new key, as a plain rerun
 * gets, would make a second consent or authorization).
 */
async function keyed<T>(given: string | undefined, write: (headers: Record<string, string>) => Promise<T>): Promise<T> {
  const headers = key(given);
  try {
    return await write(headers);
  } catch (err) {
    if (err instanceof ApiError && err.status === 409 && inProgressConflict(envelopeCode(err.body), err.serviceMessage))
      err.hint = `the service was still processing the first request with this Idempotency-Key; run the same command again with --idempotency-key ${shellWord(headers['idempotency-key'] ?? '')} to get its answer; without it, a new key makes a second one`;
    throw err;
  }
}

export async function createConsent(api: ApiClient, body: Item, idempotencyKey?: string): Promise<Item> {
  // the consent's id is what every later verb (authorize, get, revoke) takes: none is exit 7
  return keyed(idempotencyKey, (headers) =>
    readCreated<Item>(
      api,
      EP.consentsV2.create,
      'id',
      { json: body, headers, idempotent: true },
      { key: 'consent', bare: true },
    ),
  );
}

export const getConsent = (api: ApiClient, consentId: string) =>
  readObjectMaybeIn<Item>(api, EP.consentsV2.get, 'consent', { path: { consentId } });

export async function revokeConsent(api: ApiClient, consentId: string, idempotencyKey?: string): Promise<Item> {
  return keyed(idempotencyKey, (headers) =>
    readObject<Item>(api, EP.consentsV2.revoke, { path: { consentId }, headers, idempotent: true }),
  );
}

export async function consentTemplates(
  api: ApiClient,
  providerId: string,
  q: { type?: string; subType?: string },
): Promise<Item[]> {
  return readList<Item>(api, EP.consentsV2.template, 'templates', {
    path: { providerId },
    query: { type: q.type, subType: q.subType },
  });
}

export async function startAuthorization(
  api: ApiClient,
  consentId: string,
  body: { appUri?: string; callbackUri?: string },
  idempotencyKey?: string,
): Promise<Item> {
  // --wait follows the authorization by its id: an answer without one is exit 7, not a poll of "undefined"
  return keyed(idempotencyKey, (headers) =>
    readCreated<Item>(
      api,
      EP.consentsV2.authorize,
      'id',
      { path: { consentId }, json: body, headers, idempotent: true },
      { key: 'authorization', bare: true },
    ),
  );
}

export async function getAuthorization(api: ApiClient, consentId: string, authorizationId: string): Promise<Item> {
  return readObjectMaybeIn<Item>(api, EP.consentsV2.authorization, 'authorization', {
    path: { consentId, authorizationId },
  });
}

export async function relayCallback(api: ApiClient, state: string, parameters: Record<string, string>): Promise<void> {
  await api.data(EP.consentsV2.relayCallback, { json: { state, parameters } });
}
