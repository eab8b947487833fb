// The smaller reads (aggregation-api.md 4.3, 4.5): identities, investments, loans, categories.
import { defineArea } from '../endpoint.js';

export const reads = defineArea('reads', {
  identities: {
    method: 'GET',
    path: '/api/v1/identities',
    token: 'user',
    scopes: ['identity:read'],
    response: 'json',
    source: 'spec 4.5',
  },
  investments: {
    method: 'GET',
    path: '/api/v1/investments',
    token: 'user',
    scopes: ['investments:read'],
    query: ['portfolioType'],
    response: 'json',
    source: 'spec 4.5',
  },
  loans: {
    method: 'GET',
    path: '/api/v1/loans',
    token: 'user',
    scopes: ['accounts:read'],
    response: 'json',
    source: 'spec 4.5',
  },
  categories: {
    method: 'GET',
    path: '/api/v1/categories',
    token: 'optional',
    scopes: ['user:read'],
    query: ['locale'],
    response: 'json',
    source: 'spec 4.3',
  },
});
