// The smaller reads (spec 4.3, 4.5): identities, investments, loans, categories.
import { EP } from '../contract/index.js';
import type { ApiClient } from './client.js';
import { isObject, listIn, readList } from './shape.js';
import type { JsonNumber } from './accounts.js';

export const PORTFOLIO_TYPES = ['ISK', 'KF', 'DEPOT', 'PENSION', 'OTHER'] as const;

export interface Identity {
  name?: string;
  ssn?: string;
  dateOfBirth?: string;
  providerName?: string;
  [k: string]: unknown;
}

/**
 * The reference answers `{identities: [...]}` (data v1, List identity data); the older Swagger's
 * `{availableIdentityData: [...]}` is read too, and both when a service sends both. At least one of
 * them must be there, and each one sent must be a list of objects (exit 7 otherwise).
 */
export async function listIdentities(api: ApiClient): Promise<Identity[]> {
  const ep = EP.reads.identities;
  const res = await api.call(ep);
  const body = res.data;
  const keys = isObject(body) ? ['identities', 'availableIdentityData'].filter((k) => body[k] !== undefined) : [];
  // neither there (or no object at all): the error listIn gives for the reference's key
  if (keys.length === 0) return listIn<Identity>(ep, res, 'identities');
  return keys.flatMap((k) => listIn<Identity>(ep, res, k));
}

export interface Portfolio {
  id: string;
  accountId?: string;
  type?: string;
  totalValue?: JsonNumber;
  cashValue?: JsonNumber;
  instruments?: Array<Record<string, unknown>>;
  [k: string]: unknown;
}

export async function listInvestments(api: ApiClient, portfolioTypes: string[] = []): Promise<Portfolio[]> {
  return readList<Portfolio>(api, EP.reads.investments, 'portfolios', {
    query: { portfolioType: portfolioTypes.length ? portfolioTypes : undefined },
  });
}

export interface LoanResponse {
  loans: Array<Record<string, unknown>>;
  totalLoanAmount?: JsonNumber;
  weightedAverageInterestRate?: JsonNumber;
  [k: string]: unknown;
}

/** The LoanResponse: a JSON object whose `loans` is a list of objects (exit 7 otherwise). */
export async function listLoans(api: ApiClient): Promise<LoanResponse> {
  const res = await api.call(EP.reads.loans);
  const loans = listIn(EP.reads.loans, res, 'loans');
  return { ...(res.data as Partial<LoanResponse>), loans };
}

export interface Category {
  id: string;
  parent?: string | null;
  code?: string;
  type?: string;
  primaryName?: string;
  secondaryName?: string | null;
  [k: string]: unknown;
}

export async function listCategories(api: ApiClient, locale?: string): Promise<Category[]> {
  // the list itself (spec 4.3, the Swagger), or the Swagger's ListCategoriesResponse {categories}
  return readList<Category>(api, EP.reads.categories, 'categories', { query: { locale } }, { bare: true });
}
