// Transaction search (spec 2.7; SearchQuery and SearchResponse from the Swagger).
import { EP } from '../contract/index.js';
import type { ApiClient } from './client.js';
import { listIn, objectBody } from './shape.js';

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

/** A SearchResponse: a JSON object whose `results` (required by the service's Swagger) is a list of objects. */
export async function searchTransactions(api: ApiClient, q: SearchQuery): Promise<SearchResponse> {
  const res = await api.call(EP.search.query, { json: q, idempotent: true });
  const body = objectBody<SearchResponse>(EP.search.query, res);
  listIn(EP.search.query, res, 'results');
  return body;
}
