// Budgets (spec 4.2; request and response shapes from the service's Swagger).
import type { ApiClient } from './client.js';

/** The Swagger's CurrencyDenominatedAmount. unscaledValue is an int64 (a string when it does not fit a double exactly). */
export interface DenominatedAmount {
  unscaledValue: number | string;
  scale: number;
  currencyCode: string;
}

export interface BudgetFilter {
  accounts?: Array<{ id: string }>;
  categories?: Array<{ code: string }>;
  tags?: Array<{ key: string }>;
  freeTextQuery?: string;
}

export interface Budget {
  id: string;
  name: string;
  amount: DenominatedAmount;
  periodicityType: 'ONE_OFF' | 'RECURRING';
  recurringPeriodicity?: { periodUnit: 'WEEK' | 'MONTH' | 'YEAR' };
  oneOffPeriodicity?: { start: number; end: number };
  archived: boolean;
  filter: BudgetFilter;
  [k: string]: unknown;
}

export interface BudgetPeriod {
  start: number;
  end: number;
  spentAmount: DenominatedAmount;
}

export interface CreateBudgetRequest {
  name: string;
  amount: DenominatedAmount;
  filter: BudgetFilter;
  oneOffPeriodicity?: { start: number; end: number };
  recurringPeriodicity?: { periodUnit: string };
}

const P = '/api/v1/budgets';
const id = (s: string) => encodeURIComponent(s);

export async function listBudgets(api: ApiClient, includeArchived = false): Promise<Budget[]> {
  const r = await api.data<{ budgetSpecifications?: Budget[] }>({ method: 'GET', path: P, query: { includeArchived } });
  return r?.budgetSpecifications ?? [];
}

export async function createOneOffBudget(api: ApiClient, req: CreateBudgetRequest): Promise<Budget> {
  return (await api.data<{ budgetSpecification: Budget }>({ method: 'POST', path: `${P}/one-off`, json: req }))
    .budgetSpecification;
}

export async function createRecurringBudget(api: ApiClient, req: CreateBudgetRequest): Promise<Budget> {
  return (await api.data<{ budgetSpecification: Budget }>({ method: 'POST', path: `${P}/recurring`, json: req }))
    .budgetSpecification;
}

export async function recommendedBudgets(api: ApiClient): Promise<Array<Record<string, unknown>>> {
  const r = await api.data<{ recommendations?: Array<Record<string, unknown>> } | Array<Record<string, unknown>>>({
    method: 'GET',
    path: `${P}/recommended`,
  });
  return Array.isArray(r) ? r : (r?.recommendations ?? []);
}

export async function budgetSummaries(
  api: ApiClient,
  includeArchived = false,
): Promise<Array<{ budgetSpecification: Budget; budgetPeriods: BudgetPeriod }>> {
  const r = await api.data<{ budgetSummaries?: Array<{ budgetSpecification: Budget; budgetPeriods: BudgetPeriod }> }>({
    method: 'GET',
    path: `${P}/summaries`,
    query: { includeArchived },
  });
  return r?.budgetSummaries ?? [];
}

export async function updateBudget(api: ApiClient, budgetId: string, req: CreateBudgetRequest): Promise<Budget> {
  return (await api.data<{ budgetSpecification: Budget }>({ method: 'PUT', path: `${P}/${id(budgetId)}`, json: req }))
    .budgetSpecification;
}

export async function deleteBudget(api: ApiClient, budgetId: string): Promise<void> {
  await api.call({ method: 'DELETE', path: `${P}/${id(budgetId)}` });
}

export async function archiveBudget(api: ApiClient, budgetId: string): Promise<Budget> {
  return (await api.data<{ budgetSpecification: Budget }>({ method: 'PUT', path: `${P}/${id(budgetId)}/archive` }))
    .budgetSpecification;
}

export interface BudgetDetails {
  budgetSpecification: Budget;
  budgetPeriods: BudgetPeriod[];
  start: number;
  end: number;
  totalSpentAmount: DenominatedAmount;
  averageSpentAmount: DenominatedAmount;
}

export async function budgetDetails(
  api: ApiClient,
  budgetId: string,
  range: { start?: number; end?: number },
): Promise<BudgetDetails> {
  return api.data<BudgetDetails>({ method: 'GET', path: `${P}/${id(budgetId)}/details`, query: range });
}

export async function budgetTransactions(
  api: ApiClient,
  budgetId: string,
  range: { start: number; end: number },
): Promise<Array<Record<string, unknown>>> {
  const r = await api.data<{ transactions?: Array<Record<string, unknown>> }>({
    method: 'GET',
    path: `${P}/${id(budgetId)}/transactions`,
    query: range,
  });
  return r?.transactions ?? [];
}
