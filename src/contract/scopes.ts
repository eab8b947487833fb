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
