// Webhooks (aggregation-api.md 4.6 and 6, connector-api.md 4 and 6) and the sandbox's trigger.
import { EP } from '../contract/index.js';
import { ServerError } from '../errors.js';
import { notWhatItReturns, type ApiClient } from './client.js';
import { nextPageTokenProblem, prefetchPages } from './paging.js';
import { listIn, readCreated, readList, readObject } from './shape.js';

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

/** The registration a v1 delivery carries, with the secret the receiver compares. */
export interface V1Hook {
  secret: string;
  url?: string;
  events?: string[];
  [k: string]: unknown;
}

/**
 * The request the service POSTs to a v1 webhook url. The registration is under `webhook` in the
 * vendor's guides (the refresh:finished event's example) and under `webHook` in spec 6 and the
 * Swagger: a receiver reads either.
 */
export interface WebHookRequest {
  event: string;
  content: unknown;
  webhook?: V1Hook;
  webHook?: V1Hook;
}

/** The keys a v1 delivery's registration may be under, the vendor's current name first. */
export const V1_HOOK_KEYS = ['webhook', 'webHook'] as const;

/** A v1 delivery's registration: under which key, and the object (undefined when neither is an object). */
export function v1HookOf(
  body: Record<string, unknown>,
): { key: (typeof V1_HOOK_KEYS)[number]; hook: Record<string, unknown> } | undefined {
  for (const key of V1_HOOK_KEYS) {
    const hook = body[key];
    if (hook && typeof hook === 'object' && !Array.isArray(hook)) return { key, hook: hook as Record<string, unknown> };
  }
  return undefined;
}

export async function listHooks(api: ApiClient): Promise<ApiWebhook[]> {
  // {webHooks: [...]} (the Swagger's), or the list itself
  return readList<ApiWebhook>(api, EP.hooks.list, 'webHooks', {}, { bare: true });
}

/** `signal` ends the request at once (Ctrl-C while `webhooks listen --register` registers). */
export async function createHook(
  api: ApiClient,
  reg: WebhookRegistration,
  o: { signal?: AbortSignal } = {},
): Promise<ApiWebhook> {
  return readCreated<ApiWebhook>(api, EP.hooks.create, 'id', { json: reg, signal: o.signal });
}

export async function deleteHook(api: ApiClient, id: string): Promise<void> {
  await api.call(EP.hooks.delete, { path: { id } });
}

export async function listConnectorWebhooks(api: ApiClient, o: { retries?: number } = {}): Promise<ConnectorWebhook[]> {
  // the list itself (the sandbox's), or {webhooks: [...]}: connector-api.md does not show the shape
  return readList<ConnectorWebhook>(api, EP.connector.listWebhooks, 'webhooks', { retries: o.retries }, { bare: true });
}

/**
 * POST /connector/webhooks answers 204 with no body. The id comes from the Location header when the
 * service gives one (the sandbox does), else from the list: the newest entry with this url (with
 * this secret, when the list shows one that matches). Neither: exit 7, as any create answered
 * without the id it made (it was exit 0 with no id, and `-o json | jq -r .id` gave "null").
 */
export async function createConnectorWebhook(
  api: ApiClient,
  reg: WebhookRegistration,
  o: { signal?: AbortSignal } = {},
): Promise<ConnectorWebhook & { id: string }> {
  const ep = EP.connector.createWebhook;
  const res = await api.call(ep, { json: reg, signal: o.signal });
  const loc = res.headers.location;
  const location = Array.isArray(loc) ? loc[0] : loc;
  // a malformed escape (%E0%A4%A) is no id: the list says which one it is (decodeURIComponent threw: exit 1)
  let id = location ? safeDecode(location.split('?')[0]!.split('/').filter(Boolean).pop() ?? '') : undefined;
  if (!id) {
    const same = (await listConnectorWebhooks(api)).filter(
      (w) => w.url === reg.url || w.url === new URL(reg.url).toString(),
    );
    // an older registration of the same url is not this one: its secret tells them apart, where listed
    const mine = same.filter((w) => w.secret === reg.secret);
    const listed = (mine.length > 0 ? mine : same).at(-1)?.id;
    id = typeof listed === 'string' && listed !== '' ? listed : undefined;
  }
  if (!id) {
    const e = notWhatItReturns(
      ep,
      res,
      `no webhook id (no Location header, and GET /connector/webhooks lists none with url ${reg.url})`,
      '',
    );
    throw new ServerError(e.message, {
      hint: 'the service may have registered it all the same: look for the url in `bankctl connector webhooks list` (and `delete` it) before registering again',
    });
  }
  return { id, url: reg.url, secret: reg.secret, events: reg.events };
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
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

// --- Events v2 (the vendor reference's /events/v2/webhook-endpoints) ---

export { V2_DATA_EVENTS, V2_EVENTS, type V2Event } from '../contract/webhook-signature.js';

/** The reference's WebhookEndpoint; `secret` only in the answer to a create. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  enabledEvents: string[];
  description?: string;
  disabled?: boolean;
  createdAt?: string;
  updatedAt?: string;
  secret?: string;
  [k: string]: unknown;
}

export interface EndpointChanges {
  url?: string;
  enabledEvents?: string[];
  description?: string;
  disabled?: boolean;
}

/**
 * Every endpoint, following nextPageToken to the last page as every other walk does (paging.ts): a
 * token the walk was given before (A, A or A -> B -> A), a later page without a nextPageToken and
 * 1,000 empty pages in a row are exit 7, never a shorter list with exit 0. A first page without one
 * is the whole list (a service that does not page).
 */
export async function listWebhookEndpoints(api: ApiClient): Promise<WebhookEndpoint[]> {
  const ep = EP.webhookEndpoints.list;
  let read = 0;
  const page = async (pageToken: string | undefined) => {
    const res = await api.call<Record<string, unknown> | undefined>(ep, { query: pageToken ? { pageToken } : {} });
    const items = listIn<WebhookEndpoint>(ep, res, 'webhookEndpoints');
    const next = res.data?.nextPageToken;
    const problem = nextPageTokenProblem(next, read++ > 0);
    if (problem) throw notWhatItReturns(ep, res, problem, '');
    return { items, nextPageToken: typeof next === 'string' ? next : '' };
  };
  const out: WebhookEndpoint[] = [];
  const walk = prefetchPages(page, { all: true, what: `${ep.method} ${ep.path}`, size: (p) => p.items.length });
  for await (const p of walk) out.push(...p.items);
  return out;
}

export async function createWebhookEndpoint(
  api: ApiClient,
  req: { url: string; enabledEvents: string[]; description?: string; disabled?: boolean },
  o: { signal?: AbortSignal } = {},
): Promise<WebhookEndpoint> {
  return readCreated<WebhookEndpoint>(api, EP.webhookEndpoints.create, 'id', { json: req, signal: o.signal });
}

export async function updateWebhookEndpoint(
  api: ApiClient,
  id: string,
  changes: EndpointChanges,
): Promise<WebhookEndpoint> {
  return readObject<WebhookEndpoint>(api, EP.webhookEndpoints.update, {
    path: { id },
    json: { webhookEndpoint: changes },
  });
}

export async function deleteWebhookEndpoint(api: ApiClient, id: string): Promise<void> {
  await api.call(EP.webhookEndpoints.delete, { path: { id } });
}

// --- the sandbox's delivery log ---

export interface Delivery {
  id: string;
  endpointId: string;
  kind: 'v1' | 'v2';
  event: string;
  url: string;
  userId: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode?: number;
  lastError?: string;
  nextRetryAt?: string;
  created: string;
  lastAttemptAt?: string;
  resendOf?: string;
  [k: string]: unknown;
}

export async function listDeliveries(
  api: ApiClient,
  filter: { event?: string; status?: string; endpoint?: string },
): Promise<Delivery[]> {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(filter)) if (v !== undefined) query[k] = v;
  return readList<Delivery>(api, EP.sandbox.deliveries, 'deliveries', { query });
}

export async function resendDelivery(api: ApiClient, id: string): Promise<Delivery> {
  return api.data<Delivery>(EP.sandbox.resendDelivery, { path: { id } });
}
