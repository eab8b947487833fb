// The smaller reads (spec 4.3, 4.5): identities, investments, loans, categories.
import type { ApiClient } from './client.js';
import { parseExactJson } from './exact-json.js';

export const PORTFOLIO_TYPES = ['ISK', 'KF', 'DEPOT', 'PENSION', 'OTHER'] as const;

export interface Identity {
  name?: string;
  ssn?: string;
  dateOfBirth?: string;
  providerName?: string;
  [k: string]: unknown;
}

export async function listIdentities(api: ApiClient): Promise<Identity[]> {
  const data = await api.data<{ availableIdentityData?: Identity[] }>({ method: 'GET', path: '/api/v1/identities' });
  return data?.availableIdentityData ?? [];
}

export interface Portfolio {
  id: string;
  accountId?: string;
  type?: string;
  totalValue?: string;
  cashValue?: string;
  instruments?: Array<Record<string, unknown>>;
  [k: string]: unknown;
}

export async function listInvestments(api: ApiClient, portfolioTypes: string[] = []): Promise<Portfolio[]> {
  const res = await api.call<string>({
    method: 'GET',
    path: '/api/v1/investments',
    query: { portfolioType: portfolioTypes.length ? portfolioTypes : undefined },
    responseType: 'text',
  });
  return parseExactJson<{ portfolios?: Portfolio[] }>(res.data)?.portfolios ?? [];
}

export interface LoanResponse {
  loans: Array<Record<string, unknown>>;
  totalLoanAmount?: string;
  weightedAverageInterestRate?: string;
  [k: string]: unknown;
}

export async function listLoans(api: ApiClient): Promise<LoanResponse> {
  const res = await api.call<string>({ method: 'GET', path: '/api/v1/loans', responseType: 'text' });
  const data = parseExactJson<Partial<LoanResponse>>(res.data);
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
  const data = await api.data<Category[] | { categories?: Category[] }>({
    method: 'GET',
    path: '/api/v1/categories',
    query: { locale },
  });
  return Array.isArray(data) ? data : (data?.categories ?? []);
}
