// Every scope the service knows (spec 5.8, plus those the reference material uses).

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
    // the vendor reference's Events v2
    'webhook-endpoints',
  ]),
];

/** Scopes of the vendor reference's modern API (data v2, connectivity v2, Link sessions). */
export const MODERN_SCOPES: string[] = [
  'identities:readonly',
  'investment-accounts:readonly',
  'loan-accounts:readonly',
  'accounts.balances:readonly',
  'accounts.parties:readonly',
  'transaction-reports:readonly',
  'consents',
  'consents:readonly',
  'link-session:write',
];
for (const s of MODERN_SCOPES) if (!ALL_SCOPES.includes(s)) ALL_SCOPES.push(s);

/**
 * The link service's own client, the actor a code for it is delegated to (`consents update-link`):
 * the continuous-access guide ("This value isn't the same as your client_id") and the service's own
 * Postman flow give it.
 */
export const LINK_ACTOR_CLIENT_ID = 'df05e4b379934cd09963197cc855bfe9';
