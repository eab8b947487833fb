// Webhooks (aggregation-api.md 4.6 and 6, connector-api.md 4 and 6) and the sandbox's trigger.
import { EP } from '../contract/index.js';
import type { ApiClient } from './client.js';

export { WEBHOOK_EVENTS, type WebhookEvent } from '../contract/wire.js';

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

export const API_HOOKS_PATH = EP.hooks.list.path;

export async function listHooks(api: ApiClient): Promise<ApiWebhook[]> {
  const data = await api.data<{ webHooks?: ApiWebhook[] } | ApiWebhook[]>(EP.hooks.list);
  return Array.isArray(data) ? data : (data?.webHooks ?? []);
}

export async function createHook(api: ApiClient, reg: WebhookRegistration): Promise<ApiWebhook> {
  return api.data<ApiWebhook>(EP.hooks.create, { json: reg });
}

export async function deleteHook(api: ApiClient, id: string): Promise<void> {
  await api.call(EP.hooks.delete, { path: { id } });
}

export async function listConnectorWebhooks(api: ApiClient, o: { retries?: number } = {}): Promise<ConnectorWebhook[]> {
  const data = await api.data<{ webhooks?: ConnectorWebhook[] } | ConnectorWebhook[] | undefined>(
    EP.connector.listWebhooks,
    { retries: o.retries },
  );
  if (Array.isArray(data)) return data;
  return data?.webhooks ?? [];
}

/**
 * POST /connector/webhooks answers 204 with no body. The id comes from the Location header when the
 * service gives one (the sandbox does), else from the list: the newest entry with this url.
 */
export async function createConnectorWebhook(api: ApiClient, reg: WebhookRegistration): Promise<ConnectorWebhook> {
  const res = await api.call(EP.connector.createWebhook, { json: reg });
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
  await api.call(EP.connector.deleteWebhook, { path: { id } });
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
  return api.data<TriggerResponse>(EP.sandbox.trigger, { json: req });
}

/** A new connector token from the sandbox; the current one stays valid for graceSeconds. */
export async function rotateConnectorToken(
  api: ApiClient,
  retire: string,
  graceSeconds: number,
): Promise<{ token: string }> {
  return api.data<{ token: string }>(EP.sandbox.rotateConnectorToken, { json: { retire, graceSeconds } });
}
