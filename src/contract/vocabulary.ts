// Closed lists of the wire that the CLI (checking flags before sending) and the sandbox (checking
// bodies) must agree on: one definition each.

/** Account types of /api/v1/accounts and the connector (spec and reference alike). */
export const ACCOUNT_TYPES = [
  'CHECKING',
  'SAVINGS',
  'INVESTMENT',
  'MORTGAGE',
  'CREDIT_CARD',
  'LOAN',
  'DUMMY',
  'PENSION',
  'OTHER',
  'EXTERNAL',
] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** Refreshable items of credentials (create, refresh, the link flow's `refreshable_items`). */
export const REFRESH_ITEMS = [
  'CHECKING_ACCOUNTS',
  'CHECKING_TRANSACTIONS',
  'SAVING_ACCOUNTS',
  'SAVING_TRANSACTIONS',
  'CREDITCARD_ACCOUNTS',
  'CREDITCARD_TRANSACTIONS',
  'LOAN_ACCOUNTS',
  'LOAN_TRANSACTIONS',
  'INVESTMENT_ACCOUNTS',
  'INVESTMENT_TRANSACTIONS',
  'EINVOICES',
  'TRANSFER_DESTINATIONS',
  'IDENTITY_DATA',
  'LIST_BENEFICIARIES',
] as const;

export function isAccountType(t: unknown): t is AccountType {
  return typeof t === 'string' && (ACCOUNT_TYPES as readonly string[]).includes(t);
}

export function isRefreshItem(i: string): boolean {
  return (REFRESH_ITEMS as readonly string[]).includes(i);
}

/**
 * What `capability` filters providers by: the Swagger's Provider capabilities, and the three the
 * reference's List providers filter adds (beneficiaries).
 */
export const PROVIDER_CAPABILITIES: readonly string[] = [
  'CHECKING_ACCOUNTS',
  'SAVINGS_ACCOUNTS',
  'CREDIT_CARDS',
  'INVESTMENTS',
  'LOANS',
  'PAYMENTS',
  'IDENTITY_DATA',
  'TRANSFERS',
  'EINVOICES',
  'MORTGAGE_AGGREGATION',
  'MORTGAGE_LOAN',
  'LIST_BENEFICIARIES',
  'CREATE_BENEFICIARIES',
  'CREATE_BENEFICIARIES_IN_PAYMENT',
];
