// Transaction search (spec 2.7; SearchQuery and SearchResponse from the Swagger).
import { EP } from '../contract/index.js';
import type { ApiClient } from './client.js';

export interface SearchQuery {
  queryString: string;
  limit?: number;
  offset?: number;
  accounts?: string[];
  categories?: string[];
  sort?: string;
  order?: 'ASC' | 'DESC';
}

export interface SearchResponse {
  count: number;
  net: number;
  metrics?: Record<string, unknown>;
  periodAmounts?: Array<{ key: string; value: number }>;
  results: Array<{ type: string; transaction: Record<string, unknown> }>;
  [k: string]: unknown;
}

export async function searchTransactions(api: ApiClient, q: SearchQuery): Promise<SearchResponse> {
  return api.data<SearchResponse>(EP.search.query, { json: q, idempotent: true });
}
