// Providers (spec 2.2): the list with its filters, and one provider by name.
import { EP } from '../contract/index.js';
import { MARKETS } from '../contract/markets.js';
import type { ProviderField as WireProviderField } from '../contract/wire.js';
import type { ApiClient } from './client.js';

/** A provider's field as the service sends it (properties beyond the wire type kept). */
export type ProviderField = WireProviderField & { [k: string]: unknown };

export interface Provider {
  name: string;
  displayName?: string;
  type?: string;
  market?: string;
  credentialsType?: string;
  authenticationFlow?: string;
  capabilities?: string[];
  fields?: ProviderField[];
  popular?: boolean;
  [k: string]: unknown;
}

export interface ProviderQuery {
  market?: string;
  includeTestProviders?: boolean;
  excludeNonTestProviders?: boolean;
  capability?: string;
  name?: string;
}

/**
 * The providers a caller may use. With a user (--user, --external-user, a ready --token or --basic)
 * the user's list (GET /api/v1/providers, user token, credentials:read, as the vendor reference
 * requires); without one, each market's list (GET /api/v1/providers/{market}, which the reference
 * lets an app call without a token, naming itself with X-Tink-OAuth-Client-ID): the given market,
 * or every market in turn.
 */
export async function listProviders(
  api: ApiClient,
  q: ProviderQuery = {},
  o: { clientId?: string } = {},
): Promise<Provider[]> {
  const query: Record<string, string> = {};
  if (q.includeTestProviders) query.includeTestProviders = 'true';
  if (q.excludeNonTestProviders) query.excludeNonTestProviders = 'true';
  if (q.capability) query.capability = q.capability;
  if (q.name) query.name = q.name;
  const c = api.caller;
  if (c.token || c.basic || c.user?.userId || c.user?.externalUserId) {
    if (q.market) query.market = q.market;
    return providersOf(await api.data<ProviderList>(EP.providers.list, { query }));
  }
  const headers: Record<string, string> = o.clientId ? { 'x-tink-oauth-client-id': o.clientId } : {};
  const out: Provider[] = [];
  for (const market of q.market ? [q.market] : MARKETS) {
    const data = await api.data<ProviderList>(EP.providers.byMarket, { path: { market }, query, headers });
    out.push(...providersOf(data));
  }
  return out;
}

type ProviderList = { providers?: Provider[] } | Provider[] | undefined;
const providersOf = (data: ProviderList): Provider[] => (Array.isArray(data) ? data : (data?.providers ?? []));

export async function getProvider(api: ApiClient, name: string): Promise<Provider> {
  return api.data<Provider>(EP.providers.byMarket, { path: { market: name } });
}
