// The smaller reads (spec 4.3, 4.5): identities, investments, loans, categories.
import { EP } from '../contract/index.js';
import type { ApiClient } from './client.js';
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
 * `{availableIdentityData: [...]}` is read too, and both when a service sends both.
 */
export async function listIdentities(api: ApiClient): Promise<Identity[]> {
  const data = await api.data<{ identities?: Identity[]; availableIdentityData?: Identity[] }>(EP.reads.identities);
  const list = (v: unknown): Identity[] => (Array.isArray(v) ? (v as Identity[]) : []);
  return [...list(data?.identities), ...list(data?.availableIdentityData)];
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
  const data = await api.data<{ portfolios?: Portfolio[] }>(EP.reads.investments, {
    query: { portfolioType: portfolioTypes.length ? portfolioTypes : undefined },
  });
  return data?.portfolios ?? [];
}

export interface LoanResponse {
  loans: Array<Record<string, unknown>>;
  totalLoanAmount?: JsonNumber;
  weightedAverageInterestRate?: JsonNumber;
  [k: string]: unknown;
}

export async function listLoans(api: ApiClient): Promise<LoanResponse> {
  const data = await api.data<Partial<LoanResponse>>(EP.reads.loans);
  return { ...data, loans: data?.loans ?? [] };
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
  const data = await api.data<Category[] | { categories?: Category[] }>(EP.reads.categories, { query: { locale } });
  return Array.isArray(data) ? data : (data?.categories ?? []);
}
