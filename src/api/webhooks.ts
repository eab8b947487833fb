// Webhooks (aggregation-api.md 4.6 and 6, connector-api.md 4 and 6) and the sandbox's trigger.
import type { ApiClient } from './client.js';

export const WEBHOOK_EVENTS = [
  'credentials:create',
  'credentials:update',
  'transaction:create',
  'transaction:update',
  'signable-operation:update',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface WebhookRegistration {
  url: string;
  secret: string;
  events: string[];
}

/** API side (the Swagger's Webhook): id, url, secret, events, clientId, userId, global. */
export interface ApiWebhook extends WebhookRegistration {
  id: string;
  clientId?: string;
  userId?: string;
  global?: boolean;
  [k: string]: unknown;
}

/** Connector side (WebhookEntity). */
export interface ConnectorWebhook extends WebhookRegistration {
  id?: string;
  [k: string]: unknown;
}

/** The request the service POSTs to a webhook url. */
export interface WebHookRequest {
  event: string;
  content: unknown;
  webHook: { secret: string; url?: string; events?: string[] };
}

export const API_HOOKS_PATH = '/api/v1/hooks';

export async function listHooks(api: ApiClient): Promise<ApiWebhook[]> {
  const data = await api.data<{ webHooks?: ApiWebhook[] } | ApiWebhook[]>({ method: 'GET', path: API_HOOKS_PATH });
  return Array.isArray(data) ? data : (data?.webHooks ?? []);
}

export async function createHook(api: ApiClient, reg: WebhookRegistration): Promise<ApiWebhook> {
  return api.data<ApiWebhook>({ method: 'POST', path: API_HOOKS_PATH, json: reg });
}

export async function deleteHook(api: ApiClient, id: string): Promise<void> {
  await api.call({ method: 'DELETE', path: `${API_HOOKS_PATH}/${encodeURIComponent(id)}` });
}

export async function listConnectorWebhooks(api: ApiClient): Promise<ConnectorWebhook[]> {
  const data = await api.data<{ webhooks?: ConnectorWebhook[] } | ConnectorWebhook[] | undefined>({
    method: 'GET',
    path: '/connector/webhooks',
  });
  if (Array.isArray(data)) return data;
  return data?.webhooks ?? [];
}

/**
 * POST /connector/webhooks answers 204 with no body. The id comes from the Location header when the
 * service gives one (the sandbox does), else from the list: the newest entry with this url.
 */
export async function createConnectorWebhook(api: ApiClient, reg: WebhookRegistration): Promise<ConnectorWebhook> {
  const res = await api.call<unknown>({ method: 'POST', path: '/connector/webhooks', json: reg, responseType: 'text' });
  const loc = res.headers.location;
  const location = Array.isArray(loc) ? loc[0] : loc;
  let id = location ? decodeURIComponent(location.split('?')[0]!.split('/').filter(Boolean).pop() ?? '') : undefined;
  if (!id) {
    const same = (await listConnectorWebhooks(api)).filter(
      (w) => w.url === reg.url || w.url === new URL(reg.url).toString(),
    );
    id = same[same.length - 1]?.id;
  }
  return { ...(id ? { id } : {}), url: reg.url, secret: reg.secret, events: reg.events };
}

export async function deleteConnectorWebhook(api: ApiClient, id: string): Promise<void> {
  await api.call({ method: 'DELETE', path: `/connector/webhooks/${encodeURIComponent(id)}` });
}

export interface TriggerRequest {
  event: string;
  userId?: string;
  credentialsId?: string;
  status?: string;
}

export interface TriggerResponse {
  event: string;
  userId: string;
  orderKey: string;
  /** How many registrations the event was queued for. */
  webhooks: number;
  content: Record<string, unknown>;
}

export async function triggerEvent(api: ApiClient, req: TriggerRequest): Promise<TriggerResponse> {
  return api.data<TriggerResponse>({ method: 'POST', path: '/sandbox/trigger', json: req });
}
