// Statistics (spec 2.7): the types, their allowed resolutions, and POST /api/v1/statistics/query.
import { EP } from '../contract/index.js';
import { STATISTIC_RESOLUTIONS } from '../contract/wire.js';
import type { ApiClient } from './client.js';
import { readArray } from './shape.js';

export { RESOLUTIONS, STATISTIC_RESOLUTIONS, STATISTIC_TYPES } from '../contract/wire.js';

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
  return readArray<Statistic>(api, EP.statistics.query, { json: q, idempotent: true });
}
