// Providers (aggregation-api.md 2.2). The spec lists providers:read; the service's Swagger names
// credentials:read: either is accepted.
import { defineArea } from '../endpoint.js';

const scopes = ['providers:read', 'credentials:read'];

export const providers = defineArea('providers', {
  list: {
    method: 'GET',
    path: '/api/v1/providers',
    token: 'any',
    scopes,
    query: ['market', 'includeTestProviders', 'excludeNonTestProviders', 'capability', 'name'],
    response: 'json',
    source: 'spec 2.2',
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
