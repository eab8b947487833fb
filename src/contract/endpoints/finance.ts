// Budgets, calendar, statistics, search, insights, transfers and account verification reports
// (aggregation-api.md 2.7, 4.1, 4.2, 4.3, 4.5; shapes from the service's Swagger where the spec has none).
import { defineArea } from '../endpoint.js';

const budget = (spec: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; write?: boolean }) => ({
  method: spec.method,
  path: spec.path,
  token: 'user' as const,
  scopes: [spec.write ? 'budgets:write' : 'budgets:read'],
  source: 'spec 4.2',
});
const budgetBody = ['name', 'amount', 'filter', 'oneOffPeriodicity', 'recurringPeriodicity'];

export const budgets = defineArea('budgets', {
  list: { ...budget({ method: 'GET', path: '/api/v1/budgets' }), query: ['includeArchived'], response: 'json' },
  createOneOff: {
    ...budget({ method: 'POST', path: '/api/v1/budgets/one-off', write: true }),
    body: 'json',
    fields: budgetBody,
    response: 'json',
  },
  createRecurring: {
    ...budget({ method: 'POST', path: '/api/v1/budgets/recurring', write: true }),
    body: 'json',
    fields: budgetBody,
    response: 'json',
  },
  recommended: { ...budget({ method: 'GET', path: '/api/v1/budgets/recommended' }), response: 'json' },
  summaries: {
    ...budget({ method: 'GET', path: '/api/v1/budgets/summaries' }),
    query: ['includeArchived'],
    response: 'json',
  },
  update: {
    ...budget({ method: 'PUT', path: '/api/v1/budgets/{id}', write: true }),
    body: 'json',
    fields: budgetBody,
    response: 'json',
  },
  delete: { ...budget({ method: 'DELETE', path: '/api/v1/budgets/{id}', write: true }), response: 'empty' },
  archive: { ...budget({ method: 'PUT', path: '/api/v1/budgets/{id}/archive', write: true }), response: 'json' },
  details: {
    ...budget({ method: 'GET', path: '/api/v1/budgets/{id}/details' }),
    query: ['start', 'end'],
    response: 'json',
  },
  transactions: {
    ...budget({ method: 'GET', path: '/api/v1/budgets/{id}/transactions' }),
    query: ['start', 'end'],
    response: 'json',
  },
});

export const calendar = defineArea('calendar', {
  periods: {
    method: 'GET',
    path: '/api/v1/calendar/periods',
    // the vendor reference: user token only (the spec gives no token kind)
    token: 'user',
    scopes: ['calendar:read'],
    query: ['period_gte', 'period_lte', 'resolution'],
    response: 'json',
    source: 'spec 4.3',
  },
  period: {
    method: 'GET',
    path: '/api/v1/calendar/periods/{period}',
    token: 'user',
    scopes: ['calendar:read'],
    query: ['resolution'],
    response: 'json',
    source: 'spec 4.3',
  },
});

export const statistics = defineArea('statistics', {
  query: {
    method: 'POST',
    path: '/api/v1/statistics/query',
    token: 'user',
    scopes: ['statistics:read'],
    body: 'json',
    fields: ['types', 'resolution', 'description', 'periods', 'padResultUntilToday'],
    response: 'json',
    source: 'spec 2.7',
  },
});

export const search = defineArea('search', {
  query: {
    method: 'POST',
    path: '/api/v1/search',
    token: 'user',
    scopes: ['transactions:read'],
    body: 'json',
    fields: ['queryString', 'limit', 'offset', 'accounts', 'categories', 'sort', 'order'],
    response: 'json',
    source: "spec 2.7; SearchQuery from the service's Swagger",
  },
});

export const insights = defineArea('insights', {
  list: {
    method: 'GET',
    path: '/api/v1/insights',
    token: 'user',
    scopes: ['insights:read'],
    response: 'json',
    source: 'spec 4.5',
  },
  archived: {
    method: 'GET',
    path: '/api/v1/insights/archived',
    token: 'user',
    scopes: ['insights:read'],
    response: 'json',
    source: 'spec 4.5',
  },
  action: {
    method: 'POST',
    path: '/api/v1/insights/action',
    token: 'user',
    scopes: ['insights:write'],
    body: 'json',
    fields: ['insightId', 'insightAction'],
    response: 'empty',
    source: 'spec 4.5',
  },
  archive: {
    method: 'PUT',
    path: '/api/v1/insights/{id}/archive',
    token: 'user',
    scopes: ['insights:write'],
    response: 'empty',
    source: 'spec 4.5 (deprecated for insights/action)',
  },
});

// POST /api/v1/transfer is the service's Swagger path (the spec writes "/transfer")
export const transfers = defineArea('transfers', {
  create: {
    method: 'POST',
    path: '/api/v1/transfer',
    token: 'user',
    scopes: ['transfer:execute'],
    body: 'json',
    fields: ['amount', 'currency', 'sourceUri', 'destinationUri', 'destinationMessage', 'sourceMessage', 'dueDate'],
    response: 'json',
    source: "spec 2.7; the path of the service's Swagger",
  },
  status: {
    method: 'GET',
    path: '/api/v1/transfer/{id}/status',
    token: 'user',
    scopes: ['transfer:read'],
    response: 'json',
    source: "spec 2.7; the service's Swagger",
  },
});

export const reports = defineArea('reports', {
  create: {
    method: 'POST',
    path: '/api/v1/account-verification-reports',
    token: 'user',
    scopes: ['account-verification-reports:write'],
    body: 'json',
    fields: ['accountIds', 'externalReference'],
    response: 'json',
    source: 'spec 4.1',
  },
  get: {
    method: 'GET',
    path: '/api/v1/account-verification-reports/{id}',
    token: 'any',
    scopes: ['account-verification-reports:read'],
    response: 'json',
    source: 'spec 4.1',
  },
  pdf: {
    method: 'GET',
    path: '/api/v1/account-verification-reports/{id}/pdf',
    token: 'any',
    scopes: ['account-verification-reports:read'],
    query: ['template'],
    response: 'pdf',
    source: 'spec 4.1',
  },
});
