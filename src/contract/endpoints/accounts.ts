// Accounts, balances, balance refresh (aggregation-api.md 4.1) and transactions v2 (4.7).
import { defineArea } from '../endpoint.js';

export const accounts = defineArea('accounts', {
  list: {
    method: 'GET',
    path: '/api/v1/accounts/list',
    token: 'user',
    scopes: ['accounts:read'],
    response: 'json',
    source: 'spec 4.1',
  },
  update: {
    method: 'PUT',
    path: '/api/v1/accounts/{id}',
    token: 'user',
    scopes: ['accounts:write'],
    body: 'json',
    fields: ['name', 'accountNumber', 'type', 'accountExclusion', 'favored'],
    response: 'json',
    source: 'spec 4.1',
  },
  balances: {
    method: 'GET',
    path: '/api/v1/accounts/{id}/balances',
    token: 'user',
    scopes: ['balances:read'],
    response: 'json',
    source: 'spec 4.1',
  },
  // used by the service's own Postman collection
  listV2: {
    method: 'GET',
    path: '/data/v2/accounts',
    token: 'user',
    scopes: ['accounts:read'],
    query: ['pageSize', 'pageToken', 'idIn', 'typesIn'],
    response: 'paged',
    source: "the service's Postman collection; vendor reference: api-data-v2, List Accounts",
  },
});

export const balanceRefresh = defineArea('balanceRefresh', {
  create: {
    method: 'POST',
    path: '/api/v1/balance-refresh',
    token: 'user',
    scopes: ['balance-refresh'],
    body: 'json',
    fields: ['accountId'],
    response: 'json',
    source: 'spec 4.1',
  },
  status: {
    method: 'GET',
    path: '/api/v1/balance-refresh/{refreshId}',
    token: 'user',
    scopes: ['balance-refresh:readonly'],
    response: 'json',
    source: 'spec 4.1',
  },
});

export const transactions = defineArea('transactions', {
  list: {
    method: 'GET',
    path: '/data/v2/transactions',
    token: 'user',
    scopes: ['transactions:read'],
    query: ['accountIdIn', 'statusIn', 'pageSize', 'pageToken', 'bookedDateGte', 'bookedDateLte'],
    response: 'paged',
    source: 'spec 4.7',
  },
});
