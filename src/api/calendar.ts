// Calendar periods (spec 4.3; Period shape from the Swagger).
import { EP } from '../contract/index.js';
import type { ApiClient } from './client.js';
import { readArray } from './shape.js';

export interface Period {
  name: string;
  resolution: string;
  startDate: number;
  endDate: number;
  [k: string]: unknown;
}

export async function calendarPeriods(
  api: ApiClient,
  from: string,
  to: string,
  resolution?: string,
): Promise<Period[]> {
  return readArray<Period>(api, EP.calendar.periods, { query: { period_gte: from, period_lte: to, resolution } });
}

export async function calendarPeriod(api: ApiClient, period: string, resolution?: string): Promise<Period[]> {
  return readArray<Period>(api, EP.calendar.period, { path: { period }, query: { resolution } });
}
