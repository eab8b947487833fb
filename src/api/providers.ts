// Providers (spec 2.2): the list with its filters, and one provider by name.
import { EP } from '../contract/index.js';
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

export async function listProviders(api: ApiClient, q: ProviderQuery = {}): Promise<Provider[]> {
  const query: Record<string, string> = {};
  if (q.market) query.market = q.market;
  if (q.includeTestProviders) query.includeTestProviders = 'true';
  if (q.excludeNonTestProviders) query.excludeNonTestProviders = 'true';
  if (q.capability) query.capability = q.capability;
  if (q.name) query.name = q.name;
  const data = await api.data<{ providers?: Provider[] } | Provider[]>(EP.providers.list, { query });
  return Array.isArray(data) ? data : (data?.providers ?? []);
}

export async function getProvider(api: ApiClient, name: string): Promise<Provider> {
  return api.data<Provider>(EP.providers.get, { path: { name } });
}
