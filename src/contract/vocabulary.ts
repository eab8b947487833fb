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

// Credentials statuses (spec 4.4, and the extra final ones the service documents): the one list that
// the CLI's flags and messages (`credentials watch --until`, `sandbox credentials set-status`,
// `sandbox trigger --status`) and the sandbox's checks are drawn from, in the status machine's order.

/** Statuses a refresh round passes through before it ends (both names of the eID wait). */
export const CREDENTIALS_RUN_STATUSES = [
  'AUTHENTICATING',
  'AWAITING_SUPPLEMENTAL_INFORMATION',
  'AWAITING_MOBILE_EID_AUTHENTICATION',
  'AWAITING_MOBILE_BANKID_AUTHENTICATION',
  'AWAITING_THIRD_PARTY_APP_AUTHENTICATION',
  'UPDATING',
] as const;
/** Statuses that end a refresh in failure (the spec's two and the service's SESSION_EXPIRED, PERMANENT_ERROR). */
export const CREDENTIALS_ERROR_STATUSES = [
  'AUTHENTICATION_ERROR',
  'TEMPORARY_ERROR',
  'PERMANENT_ERROR',
  'SESSION_EXPIRED',
] as const;
export type CredentialsErrorStatus = (typeof CREDENTIALS_ERROR_STATUSES)[number];
/** Every status credentials can be in. */
export const CREDENTIALS_STATUSES = [
  'CREATED',
  ...CREDENTIALS_RUN_STATUSES,
  'UPDATED',
  ...CREDENTIALS_ERROR_STATUSES,
  'DELETED',
] as const;
/**
 * The statuses the sandbox puts existing credentials into on request: all but DELETED (a delete
 * does that) and the older eID name (the sandbox sends AWAITING_MOBILE_EID_AUTHENTICATION).
 */
export const SETTABLE_CREDENTIALS_STATUSES: readonly string[] = CREDENTIALS_STATUSES.filter(
  (s) => s !== 'DELETED' && s !== 'AWAITING_MOBILE_BANKID_AUTHENTICATION',
);

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
