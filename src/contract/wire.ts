// Wire types and value lists both sides use: what a provider's field, a budget's filter, a webhook's
// event and a statistic's type look like on the wire.

/** A field of a provider (spec 2.2), as the providers list and supplemental information show it. */
export interface ProviderField {
  name: string;
  description?: string;
  hint?: string;
  helpText?: string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  patternError?: string;
  optional?: boolean;
  exposed?: boolean;
  immutable?: boolean;
  masked?: boolean;
  numeric?: boolean;
  sensitive?: boolean;
  checkbox?: boolean;
  value?: string;
  defaultValue?: string;
  /** The reference's choices: the answer is one of their values (a menu, not free text). */
  selectOptions?: Array<{ value?: string; text?: string; iconUrl?: string }>;
}

/** A budget's filter (the Swagger's BudgetFilter). */
export interface BudgetFilter {
  accounts?: Array<{ id: string }>;
  categories?: Array<{ code: string }>;
  tags?: Array<{ key: string }>;
  freeTextQuery?: string;
}

/** The events a webhook can be registered for (spec 6). */
export const WEBHOOK_EVENTS = [
  'credentials:create',
  'credentials:update',
  'transaction:create',
  'transaction:update',
  'signable-operation:update',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Spec 2.7's table: each statistic type with the resolutions it may be queried at. */
export const STATISTIC_RESOLUTIONS: Record<string, string[]> = {
  'balances-by-account': ['MONTHLY', 'MONTHLY_ADJUSTED'],
  'balances-by-account-type-group': ['MONTHLY', 'MONTHLY_ADJUSTED'],
  'expenses-by-category': ['MONTHLY', 'MONTHLY_ADJUSTED', 'YEARLY', 'DAILY', 'WEEKLY'],
  'expenses-by-primary-category': ['MONTHLY', 'MONTHLY_ADJUSTED', 'YEARLY', 'DAILY', 'WEEKLY'],
  'expenses-by-category/by-count': ['MONTHLY', 'MONTHLY_ADJUSTED', 'DAILY', 'WEEKLY'],
  'expenses-by-primary-category/by-count': ['MONTHLY', 'MONTHLY_ADJUSTED', 'DAILY', 'WEEKLY'],
  'income-by-category': ['MONTHLY', 'MONTHLY_ADJUSTED'],
  'income-and-expenses': ['MONTHLY', 'MONTHLY_ADJUSTED', 'YEARLY'],
  'left-to-spend': ['MONTHLY', 'MONTHLY_ADJUSTED'],
  'left-to-spend-average': ['MONTHLY', 'MONTHLY_ADJUSTED'],
};
export const STATISTIC_TYPES = Object.keys(STATISTIC_RESOLUTIONS);
export const RESOLUTIONS = ['MONTHLY', 'MONTHLY_ADJUSTED', 'YEARLY', 'WEEKLY', 'DAILY'];

/** One request of the sandbox's request log (GET /sandbox/logs), as served and as `sandbox logs` reads it. */
export interface LogEntry {
  seq: number;
  /** Sandbox clock, epoch ms. */
  time: number;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  /** client, user, connector, basic, none, or invalid (a token the sandbox does not know). */
  tokenKind: string;
  scopes: string[];
  userId?: string;
  clientId?: string;
  requestId: string;
  requestBody?: string;
  responseBody?: string;
}
