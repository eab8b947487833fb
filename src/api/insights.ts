// Insights (spec 4.5 and 3.2; shapes from the service's Swagger).
import { EP } from '../contract/index.js';
import type { ApiClient } from './client.js';
import { readArray } from './shape.js';

export interface Insight {
  id: string;
  userId: string;
  type: string;
  title: string;
  description: string;
  data?: Record<string, unknown>;
  createdTime?: number;
  insightActions?: Array<{ label: string; data: { type: string } }>;
  [k: string]: unknown;
}

export async function listInsights(api: ApiClient): Promise<Insight[]> {
  return readArray<Insight>(api, EP.insights.list);
}

export async function listArchivedInsights(api: ApiClient): Promise<Insight[]> {
  return readArray<Insight>(api, EP.insights.archived);
}

/** SelectInsightActionRequest: reports the action and archives the insight. */
export async function selectInsightAction(api: ApiClient, insightId: string, insightAction: string): Promise<void> {
  await api.call(EP.insights.action, { json: { insightId, insightAction } });
}

/** Deprecated in favour of selectInsightAction. */
export async function archiveInsight(api: ApiClient, insightId: string): Promise<void> {
  await api.call(EP.insights.archive, { path: { id: insightId } });
}
