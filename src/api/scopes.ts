// One table mapping every endpoint of the spec to the token it takes and its scope.
// The CLI asks for exactly these scopes; the sandbox enforces them. Shared by both.

/**
 * client: a client token (client_credentials); user: a user token (code exchange, connector token
 * generation, or HTTP Basic for connector-pushed users); any: either; none: no auth;
 * optional: authenticated when a token is given; connector: `Token <connector token>` or a client
 * Bearer token holding the scope.
 */
export type TokenKind = 'client' | 'user' | 'any' | 'none' | 'optional' | 'connector';

export interface EndpointAuth {
  method: string;
  path: string;
  token: TokenKind;
  /** The endpoint accepts a token holding any one of these. Empty: no scope needed. */
  scopes: string[];
}

const e = (method: string, path: string, token: TokenKind, ...scopes: string[]): EndpointAuth => ({
  method,
  path,
  token,
  scopes,
});

export const ENDPOINTS: EndpointAuth[] = [
  // 4.1 account verification, accounts, balances
  e('POST', '/api/v1/account-verification-reports', 'user', 'account-verification-reports:write'),
  e('GET', '/api/v1/account-verification-reports/{id}', 'any', 'account-verification-reports:read'),
  e('GET', '/api/v1/account-verification-reports/{id}/pdf', 'any', 'account-verification-reports:read'),
  e('GET', '/api/v1/accounts/list', 'user', 'accounts:read'),
  e('PUT', '/api/v1/accounts/{id}', 'user', 'accounts:write'),
  e('GET', '/api/v1/accounts/{id}/balances', 'user', 'balances:read'),
  e('POST', '/api/v1/balance-refresh', 'user', 'balance-refresh'),
  e('GET', '/api/v1/balance-refresh/{refreshId}', 'user', 'balance-refresh:readonly'),
  // 4.2 budgets
  e('GET', '/api/v1/budgets', 'user', 'budgets:read'),
  e('POST', '/api/v1/budgets/one-off', 'user', 'budgets:write'),
  e('POST', '/api/v1/budgets/recurring', 'user', 'budgets:write'),
  e('GET', '/api/v1/budgets/recommended', 'user', 'budgets:read'),
  e('GET', '/api/v1/budgets/summaries', 'user', 'budgets:read'),
  e('PUT', '/api/v1/budgets/{id}', 'user', 'budgets:write'),
  e('DELETE', '/api/v1/budgets/{id}', 'user', 'budgets:write'),
  e('PUT', '/api/v1/budgets/{id}/archive', 'user', 'budgets:write'),
  e('GET', '/api/v1/budgets/{id}/details', 'user', 'budgets:read'),
  e('GET', '/api/v1/budgets/{id}/transactions', 'user', 'budgets:read'),
  // 4.3 calendar and categories
  e('GET', '/api/v1/calendar/periods', 'any', 'calendar:read'),
  e('GET', '/api/v1/calendar/periods/{period}', 'any', 'calendar:read'),
  e('GET', '/api/v1/categories', 'optional', 'user:read'),
  // 4.4 credentials
  e('POST', '/api/v1/credentials', 'user', 'credentials:write'),
  e('GET', '/api/v1/credentials/list', 'user', 'credentials:read'),
  e('GET', '/api/v1/credentials/{id}', 'user', 'credentials:read'),
  e('PUT', '/api/v1/credentials/{id}', 'user', 'credentials:write'),
  e('DELETE', '/api/v1/credentials/{id}', 'user', 'credentials:write'),
  e('POST', '/api/v1/credentials/{id}/authenticate', 'user', 'credentials:refresh'),
  e('POST', '/api/v1/credentials/{id}/refresh', 'any', 'credentials:refresh'),
  e('POST', '/api/v1/credentials/{id}/supplemental-information', 'user', 'credentials:refresh'),
  e('GET', '/api/v1/credentials/{id}/qr', 'user', 'credentials:read'),
  e('POST', '/api/v1/credentials/third-party/callback/relayed', 'none'),
  // providers (the spec lists providers:read; the service's Swagger names credentials:read)
  e('GET', '/api/v1/providers', 'any', 'providers:read', 'credentials:read'),
  e('GET', '/api/v1/providers/{name}', 'any', 'providers:read', 'credentials:read'),
  // 4.5 identity, insights, investments, loans
  e('GET', '/api/v1/identities', 'user', 'identity:read'),
  e('GET', '/api/v1/insights', 'user', 'insights:read'),
  e('POST', '/api/v1/insights/action', 'user', 'insights:write'),
  e('GET', '/api/v1/insights/archived', 'user', 'insights:read'),
  e('PUT', '/api/v1/insights/{id}/archive', 'user', 'insights:write'),
  e('GET', '/api/v1/investments', 'user', 'investments:read'),
  e('GET', '/api/v1/loans', 'user', 'accounts:read'),
  // 4.6 users, consents, OAuth
  e('POST', '/api/v1/user/create', 'client', 'user:create'),
  e('POST', '/api/v1/user/delete', 'user', 'user:delete'),
  e('GET', '/api/v1/provider-consents', 'user', 'provider-consents:read'),
  e('POST', '/api/v1/oauth/authorization-grant', 'client', 'authorization:grant'),
  e('POST', '/api/v1/oauth/authorization-grant/delegate', 'client', 'authorization:grant'),
  // revoke-all: scope not given by the spec; the service's Swagger names authorization:revoke
  e('POST', '/api/v1/oauth/revoke-all', 'client', 'authorization:revoke'),
  e('POST', '/api/v1/oauth/token', 'none'),
  // 2.7 statistics, search, transfers; 6 webhooks
  e('POST', '/api/v1/statistics/query', 'user', 'statistics:read'),
  e('POST', '/api/v1/search', 'user', 'transactions:read'),
  e('POST', '/api/v1/transfer', 'user', 'transfer:execute'),
  e('GET', '/api/v1/transfer/{id}/status', 'user', 'transfer:read'),
  // webhooks: a client token registers for all users, a user token for that user (docs/webhooks.md)
  e('GET', '/api/v1/hooks', 'any', 'user:web_hooks'),
  e('POST', '/api/v1/hooks', 'any', 'user:web_hooks'),
  e('DELETE', '/api/v1/hooks/{id}', 'any', 'user:web_hooks'),
  e('GET', '/api/v1/authorization/hooks', 'any', 'user:web_hooks'),
  e('POST', '/api/v1/authorization/hooks', 'any', 'user:web_hooks'),
  e('DELETE', '/api/v1/authorization/hooks/{id}', 'any', 'user:web_hooks'),
  e('POST', '/sandbox/trigger', 'connector', 'user:web_hooks'),
  // 4.7 transactions (v2); /data/v2/accounts is used by the service's own Postman collection
  e('GET', '/data/v2/transactions', 'user', 'transactions:read'),
  e('GET', '/data/v2/accounts', 'user', 'accounts:read'),
  // connector (connector-api.md); Bearer client tokens need these scopes (the service's Postman
  // collection uses user:create, accounts:write and transactions:write)
  e('POST', '/connector/users', 'connector', 'user:create'),
  e('PUT', '/connector/users/{externalUserId}', 'connector', 'user:write', 'user:create'),
  e('DELETE', '/connector/users/{externalUserId}', 'connector', 'user:delete', 'user:create'),
  e('POST', '/connector/users/{externalUserId}/accounts', 'connector', 'accounts:write'),
  e('PUT', '/connector/users/{externalUserId}/accounts/{externalAccountId}', 'connector', 'accounts:write'),
  e('DELETE', '/connector/users/{externalUserId}/accounts/{externalAccountId}', 'connector', 'accounts:write'),
  e('POST', '/connector/users/{externalUserId}/transactions', 'connector', 'transactions:write'),
  e('POST', '/connector/users/{externalUserId}/transactions/delete', 'connector', 'transactions:write'),
  e('PUT', '/connector/users/{externalUserId}/transactions/{externalTransactionId}', 'connector', 'transactions:write'),
  e('POST', '/connector/batch', 'connector', 'transactions:write'),
  e('POST', '/connector/v2/tokens/generate', 'connector', 'authorization:grant'),
  e('GET', '/connector/webhooks', 'connector', 'user:web_hooks'),
  e('POST', '/connector/webhooks', 'connector', 'user:web_hooks'),
  e('DELETE', '/connector/webhooks/{id}', 'connector', 'user:web_hooks'),
  e('GET', '/version', 'none'),
];

/** Every scope the service knows (spec 5.8, plus those the reference material uses). */
export const ALL_SCOPES: string[] = [
  ...new Set([
    ...'accounts:read accounts:write authorization:grant budgets:read budgets:write categories:read contacts:read credentials:read credentials:refresh credentials:write data-exports:read data-exports:write documents:read documents:write follow:read follow:write investments:read properties:read properties:write providers:read statistics:read suggestions:read transactions:categorize transactions:read transactions:write transfer:execute transfer:read user:create user:delete user:read user:web_hooks user:write identity:read identity:write'.split(
      ' ',
    ),
    ...'account-verification-reports:read account-verification-reports:write balances:read balance-refresh balance-refresh:readonly calendar:read insights:read insights:write provider-consents:read'.split(
      ' ',
    ),
    // used by the service's Postman collections and Swagger, beyond the spec's list
    'authorization:read',
    'authorization:revoke',
  ]),
];

interface Compiled extends EndpointAuth {
  regex: RegExp;
  params: string[];
}

const compiled: Compiled[] = ENDPOINTS.map((ep) => {
  const params: string[] = [];
  const pattern = ep.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { ...ep, regex: new RegExp(`^${pattern}$`), params };
});

// Bucketed by method and segment count, literal-first, so a lookup tests a handful of patterns.
const buckets = new Map<string, Compiled[]>();
for (const c of compiled) {
  const key = `${c.method} ${c.path.split('/').length}`;
  const list = buckets.get(key) ?? [];
  list.push(c);
  list.sort((a, b) => a.params.length - b.params.length);
  buckets.set(key, list);
}

/** The endpoint entry for a concrete method and path (literal segments win over parameters). */
export function endpointFor(method: string, path: string): EndpointAuth | undefined {
  const p = path.split('?')[0]!;
  const list = buckets.get(`${method.toUpperCase()} ${p.split('/').length}`);
  return list?.find((c) => c.regex.test(p));
}

/** The scope a client should ask for to call this endpoint (the first listed). */
export function scopeFor(method: string, path: string): string[] {
  const ep = endpointFor(method, path);
  return ep && ep.scopes.length > 0 ? [ep.scopes[0]!] : [];
}
