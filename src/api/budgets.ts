// Budgets (spec 4.2; request and response shapes from the service's Swagger).
import { EP } from '../contract/index.js';
import type { DenominatedAmount } from '../contract/decimal.js';
import type { BudgetFilter } from '../contract/wire.js';
import type { ApiClient } from './client.js';
import { listIn, notTheShape, objectBody, objectMaybeIn, readCreated, readList, readObjectIn } from './shape.js';

export type { DenominatedAmount } from '../contract/decimal.js';
export type { BudgetFilter } from '../contract/wire.js';

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

export async function listBudgets(api: ApiClient, includeArchived = false): Promise<Budget[]> {
  return readList<Budget>(api, EP.budgets.list, 'budgetSpecifications', { query: { includeArchived } });
}

export async function createOneOffBudget(api: ApiClient, req: CreateBudgetRequest): Promise<Budget> {
  return readCreated<Budget>(api, EP.budgets.createOneOff, 'id', { json: req }, { key: 'budgetSpecification' });
}

export async function createRecurringBudget(api: ApiClient, req: CreateBudgetRequest): Promise<Budget> {
  return readCreated<Budget>(api, EP.budgets.createRecurring, 'id', { json: req }, { key: 'budgetSpecification' });
}

export async function recommendedBudgets(api: ApiClient): Promise<Array<Record<string, unknown>>> {
  // {recommendedBudgets: [...]} (the vendor reference's); {recommendations: [...]} (what sandboxes
  // before 2026-11-30 answered), or the list itself
  const res = await api.call(EP.budgets.recommended, {});
  const body = res.data;
  const older =
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    'recommendations' in body &&
    !('recommendedBudgets' in body);
  return listIn(EP.budgets.recommended, res, older ? 'recommendations' : 'recommendedBudgets', { bare: true });
}

/** One of GET /api/v1/budgets/summaries: the budget and its current period. */
export interface BudgetSummary {
  budgetSpecification: Budget;
  /** The vendor reference's name of the current period. */
  budgetPeriod?: BudgetPeriod;
  /** The older Swagger's name of it. */
  budgetPeriods?: BudgetPeriod;
}

/** A summary's current period, under either name. */
export const currentPeriod = (s: BudgetSummary): BudgetPeriod | undefined => s.budgetPeriod ?? s.budgetPeriods;

export async function budgetSummaries(api: ApiClient, includeArchived = false): Promise<BudgetSummary[]> {
  return readList(api, EP.budgets.summaries, 'budgetSummaries', { query: { includeArchived } });
}

export async function updateBudget(api: ApiClient, budgetId: string, req: CreateBudgetRequest): Promise<Budget> {
  return readObjectIn<Budget>(api, EP.budgets.update, 'budgetSpecification', { path: { id: budgetId }, json: req });
}

export async function deleteBudget(api: ApiClient, budgetId: string): Promise<void> {
  await api.call(EP.budgets.delete, { path: { id: budgetId } });
}

/**
 * The archived budget: the Swagger's ArchiveBudgetResponse wraps it in `budgetSpecification`, the
 * current reference answers the budget itself; both are read (the archive is done either way, and
 * a retry would be a 400).
 */
export async function archiveBudget(api: ApiClient, budgetId: string): Promise<Budget> {
  const ep = EP.budgets.archive;
  const res = await api.call(ep, { path: { id: budgetId } });
  const b = objectMaybeIn<Budget>(ep, res, 'budgetSpecification');
  // a bare body is the budget only if it is one: `{}` would print an empty budget with exit 0
  if (typeof b.id !== 'string') throw notTheShape(ep, res, 'no budget (no budgetSpecification, no id)');
  return b;
}

/** The reference requires only the two amounts: a budget and its periods may be left out. */
export interface BudgetDetails {
  budgetSpecification?: Budget;
  budgetPeriods?: BudgetPeriod[];
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
  const ep = EP.budgets.details;
  const res = await api.call(ep, { path: { id: budgetId }, query: range });
  const d = objectBody<BudgetDetails>(ep, res);
  // absent periods are none; periods that are not a list are not this endpoint's answer
  if (d.budgetPeriods !== undefined && !Array.isArray(d.budgetPeriods))
    throw notTheShape(ep, res, 'budgetPeriods that is not a list');
  return d;
}

export async function budgetTransactions(
  api: ApiClient,
  budgetId: string,
  range: { start: number; end: number },
): Promise<Array<Record<string, unknown>>> {
  return readList(api, EP.budgets.transactions, 'transactions', { path: { id: budgetId }, query: range });
}
