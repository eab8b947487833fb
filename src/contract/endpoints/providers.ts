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
  get: {
    method: 'GET',
    path: '/api/v1/providers/{name}',
    token: 'any',
    scopes,
    query: ['includeTestProviders', 'excludeNonTestProviders', 'capability', 'name'],
    response: 'json',
    source: "spec 2.2; a market code lists that market (the service's Swagger GET /api/v1/providers/{market})",
  },
});
