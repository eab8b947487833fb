// Statistics (spec 2.7): the types, their allowed resolutions, and POST /api/v1/statistics/query.
import type { ApiClient } from './client.js';

/** Spec 2.7's table: each type with the resolutions it may be queried at. */
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

/** The types that cannot be queried at a resolution (empty when all can). */
export function incompatibleTypes(types: string[], resolution: string): string[] {
  return types.filter((t) => !(STATISTIC_RESOLUTIONS[t] ?? []).includes(resolution));
}

export interface StatisticQuery {
  types: string[];
  resolution: string;
  description?: string | string[];
  periods?: string[];
  padResultUntilToday?: boolean;
}

export interface Statistic {
  description: string;
  period: string;
  resolution: string;
  type: string;
  userId: string;
  value: number;
  payload?: string;
  /** The sandbox adds the exact amount behind value. */
  amount?: { currencyCode: string; value: { scale: string; unscaledValue: string } };
  [k: string]: unknown;
}

export async function queryStatistics(api: ApiClient, q: StatisticQuery): Promise<Statistic[]> {
  return (
    (await api.data<Statistic[]>({ method: 'POST', path: '/api/v1/statistics/query', json: q, idempotent: true })) ?? []
  );
}
