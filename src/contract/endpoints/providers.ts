// Providers (aggregation-api.md 2.2). Token kinds and scopes as the vendor reference's "Works with"
// tables give them: the full list takes a user token with credentials:read (the spec says
// providers:read); a market's list takes a user or client token with providers:read, or none.
import { defineArea } from '../endpoint.js';

export const providers = defineArea('providers', {
  list: {
    method: 'GET',
    path: '/api/v1/providers',
    token: 'user',
    scopes: ['credentials:read'],
    query: ['market', 'includeTestProviders', 'excludeNonTestProviders', 'capability', 'name'],
    response: 'json',
    source: 'spec 2.2; token kind and scope from the vendor reference: List providers (connectivity v1)',
  },
  markets: {
    method: 'GET',
    path: '/api/v1/providers/markets',
    token: 'any',
    scopes: ['providers:read'],
    response: 'json',
    source: 'vendor reference: List markets (connectivity v1, ProviderMarketListResponse)',
  },
  // a user token lists what that user may use, a client token (or X-Tink-OAuth-Client-ID without
  // a token) what the app may, no token every provider of the environment
  byMarket: {
    method: 'GET',
    path: '/api/v1/providers/{market}',
    token: 'optional',
    scopes: ['providers:read'],
    query: ['includeTestProviders', 'excludeNonTestProviders', 'capability', 'pisCapability', 'name'],
    response: 'json',
    source: 'vendor reference: List providers for a market (connectivity v1); spec 2.2 read it as one provider by name',
  },
});
