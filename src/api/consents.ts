// Provider consents (spec 2.5, 4.6): listing, deletion (deleting the credentials), and the
// update-consent link of the link service, which carries a single-use code for the consent update.
import { EP, LINK_ACTOR_CLIENT_ID } from '../contract/index.js';
import { NotFoundError } from '../errors.js';
import type { ApiClient } from './client.js';
import { readCreated, readList } from './shape.js';
import type { UserRef } from '../auth/tokens.js';

export interface ProviderConsent {
  credentialsId: string;
  providerName?: string;
  status?: string;
  sessionExpiryDate?: number;
  accountIds?: string[];
  [k: string]: unknown;
}

/** The scopes the link service needs to update a consent (the service's own Postman flow). */
export const UPDATE_CONSENT_SCOPES = [
  'authorization:read',
  'authorization:grant',
  'credentials:refresh',
  'credentials:read',
  'credentials:write',
  'providers:read',
  'user:read',
];

export async function listConsents(api: ApiClient): Promise<ProviderConsent[]> {
  return readList<ProviderConsent>(api, EP.consents.list, 'providerConsents');
}

export async function deleteConsent(api: ApiClient, credentialsId: string): Promise<void> {
  await api.call(EP.credentials.delete, { path: { id: credentialsId } });
}

export interface UpdateLinkOptions {
  linkUrl: string;
  clientId: string;
  user: UserRef;
  credentialsId: string;
  redirectUri: string;
  market?: string;
  locale?: string;
  state?: string;
  /** The client allowed to use the code: the link service's own client (default: this client). */
  actorClientId?: string;
  idHint: string;
}

/** Whether the user holds these credentials: a consent names them, or an account of theirs does. */
async function holdsCredentials(api: ApiClient, credentialsId: string): Promise<boolean> {
  if ((await listConsents(api)).some((c) => c.credentialsId === credentialsId)) return true;
  const accounts = await readList<{ credentialsId?: unknown }>(api, EP.accounts.list, 'accounts');
  return accounts.some((a) => a.credentialsId === credentialsId);
}

/**
 * A delegated code for the link service, then the update-consent URL. The user must hold these
 * credentials (NotFoundError otherwise): a link for nothing would only fail in a browser.
 */
export async function updateConsentLink(api: ApiClient, o: UpdateLinkOptions): Promise<string> {
  if (!(await holdsCredentials(api, o.credentialsId)))
    throw new NotFoundError(`the user holds no credentials ${o.credentialsId}`, {
      hint: 'see `bankctl consents list` or `bankctl accounts list` for the ids',
    });
  const form: Record<string, string | undefined> = {
    user_id: o.user.userId,
    external_user_id: o.user.userId ? undefined : o.user.externalUserId,
    id_hint: o.idHint,
    actor_client_id: o.actorClientId ?? LINK_ACTOR_CLIENT_ID,
    scope: UPDATE_CONSENT_SCOPES.join(','),
  };
  // a link with authorization_code=undefined in it would only fail in the browser: no code is exit 7
  const { code } = await readCreated<{ code: string }>(api, EP.oauth.delegate, 'code', { form });
  const u = new URL(`${o.linkUrl.replace(/\/+$/, '')}/1.0/transactions/update-consent`);
  u.searchParams.set('client_id', o.clientId);
  u.searchParams.set('redirect_uri', o.redirectUri);
  u.searchParams.set('credentials_id', o.credentialsId);
  u.searchParams.set('authorization_code', code);
  if (o.market) u.searchParams.set('market', o.market);
  if (o.locale) u.searchParams.set('locale', o.locale);
  if (o.state) u.searchParams.set('state', o.state);
  return u.toString();
}
