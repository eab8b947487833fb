// Webhook registrations and delivery (spec 6 of both documents, and the vendor reference's Events
// v2). Every event on the bus goes to each registration that asked for it:
// - v1 (connector and /api/v1/hooks): a POST of a WebHookRequest {event, content, webHook}, at least
//   once and in order per orderKey (a queue per registration and key): a receiver that fails
//   (non-2xx, a redirect, a network error, a timeout) gets the same event again after a backoff, and
//   later events of that key wait behind it.
// - Events v2 (/events/v2/webhook-endpoints): a POST of {context, content, event} signed with
//   X-Tink-Signature (src/contract/webhook-signature.ts), in order per endpoint; retried with backoff
//   on 408, 429 and 5xx only (the reference: "up to 3 times"), not when no connection can be made.
// Every delivery is recorded (GET /sandbox/webhooks/deliveries) and can be resent. Redirects are
// never followed, and the receiver's answer is treated as hostile: only a few KiB of it are read.
import { Agent, buildConnector, request } from 'undici';
import { SIGNATURE_HEADER, signatureHeader } from '../contract/webhook-signature.js';
import type { EventName, SandboxContext, SandboxEvent } from './context.js';
import { EVENT_NAMES } from './context.js';
import { attachEventBus } from './events-v2.js';
import { badRequest } from './http.js';

export interface DeliveryOptions {
  /** Waits before each retry, ms; the last one repeats. */
  retryDelaysMs?: number[];
  /** Attempts per event before it is given up (logged as dropped). */
  maxAttempts?: number;
  /** Per attempt: connect, headers and body, ms. */
  timeoutMs?: number;
  /** How much of a receiver's answer is read, bytes. */
  maxResponseBytes?: number;
  /** Attempts of an Events v2 delivery (the first and the retries). */
  v2MaxAttempts?: number;
}

export const DEFAULT_DELIVERY: Required<DeliveryOptions> = {
  retryDelaysMs: [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000],
  maxAttempts: 12,
  timeoutMs: 10_000,
  maxResponseBytes: 16 * 1024,
  v2MaxAttempts: 4,
};

/** What the signature's timestamp is taken from: the receiver compares it with its own wall clock. */
export const signatureClock = { now: () => Date.now() };

export interface WebhookRecord {
  id: string;
  url: string;
  secret: string;
  events: EventName[];
  /** connector: POST /connector/webhooks; api: POST /api/v1/hooks; v2: /events/v2/webhook-endpoints. */
  source: 'connector' | 'api' | 'v2';
  clientId?: string;
  /** API-side registrations made with a user token concern that user only. */
  userId?: string;
  created: number;
  /** Events v2 only. */
  description?: string;
  disabled?: boolean;
  updated?: number;
}

/** One event for one registration, with its attempts: what `webhooks deliveries` lists. */
export interface DeliveryRecord {
  id: string;
  endpointId: string;
  kind: 'v1' | 'v2';
  event: EventName;
  url: string;
  userId: string;
  orderKey: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** The receiver's last HTTP status. */
  lastStatusCode?: number;
  /** The last network error (code), or why it was given up. */
  lastError?: string;
  /** When the next attempt is due (epoch ms), while one is. */
  nextRetryAt?: number;
  created: number;
  lastAttemptAt?: number;
  /** The delivery this one resends. */
  resendOf?: string;
  /** The body as sent (v2 bodies are re-signed on each attempt, the bytes stay the same). */
  body: string;
}

export interface DeliveryLogEntry {
  hookId: string;
  event: EventName;
  orderKey: string;
  attempt: number;
  /** The receiver's status, or the network error code. */
  outcome: number | string;
  delivered: boolean;
  at: number;
}

interface Job {
  event: SandboxEvent;
  attempts: number;
  deliveryId: string;
}

interface Queue {
  jobs: Job[];
  running: boolean;
}

const MAX_QUEUE = 10_000;
const MAX_HOOKS = 200;

/** Per-sandbox state in the store, so that reset() forgets registrations and queued deliveries. */
export class WebhookState {
  hooks = new Map<string, WebhookRecord>();
  queues = new Map<string, Queue>();
  /** Recent delivery attempts, for tests and the admin route (bounded). */
  log: DeliveryLogEntry[] = [];
  /** Recent deliveries by id, oldest first (bounded). */
  deliveries = new Map<string, DeliveryRecord>();
}

const MAX_DELIVERIES = 1000;

/** A delivery as the admin route shows it: without the body (a v1 body holds the secret). */
export function deliveryView(d: DeliveryRecord): Record<string, unknown> {
  const { body: _body, ...rest } = d;
  return {
    ...rest,
    created: new Date(d.created).toISOString(),
    ...(d.lastAttemptAt !== undefined ? { lastAttemptAt: new Date(d.lastAttemptAt).toISOString() } : {}),
    ...(d.nextRetryAt !== undefined ? { nextRetryAt: new Date(d.nextRetryAt).toISOString() } : {}),
  };
}

export const MAX_SECRET_LENGTH = 1024;
export const MAX_URL_LENGTH = 2048;

/** 127.0.0.0/8, ::1 and localhost: the only places plain http is allowed, so local receivers work. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === '[::1]' || h === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** A receiver URL: https, or http on a loopback address; no credentials, no fragment (400 otherwise). */
export function validateUrl(url: unknown): string {
  if (typeof url !== 'string' || url.trim() === '') throw badRequest('url is required', { field: 'url' });
  if (url.length > MAX_URL_LENGTH)
    throw badRequest(`url is longer than ${MAX_URL_LENGTH} characters`, { field: 'url' });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('url is not a valid URL', { field: 'url' });
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) {
    throw badRequest('url must use https (plain http is allowed only for loopback addresses)', { field: 'url' });
  }
  if (parsed.username || parsed.password) throw badRequest('url must not hold credentials', { field: 'url' });
  if (parsed.hash) throw badRequest('url must not have a fragment', { field: 'url' });
  return parsed.toString();
}

/** Validates a registration body {url, secret, events}; 400 with the reason otherwise. */
export function validateRegistration(body: Record<string, unknown>): {
  url: string;
  secret: string;
  events: EventName[];
} {
  const url = validateUrl(body.url);
  const secret = body.secret;
  if (typeof secret !== 'string' || secret === '') throw badRequest('secret is required', { field: 'secret' });
  if (secret.length > MAX_SECRET_LENGTH)
    throw badRequest(`secret is longer than ${MAX_SECRET_LENGTH} characters`, { field: 'secret' });
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0)
    throw badRequest('events must be a non-empty array of event names', { field: 'events' });
  const out: EventName[] = [];
  for (const e of events) {
    if (typeof e !== 'string' || !(EVENT_NAMES as string[]).includes(e)) {
      throw badRequest(
        `unknown event ${JSON.stringify(typeof e === 'string' ? e.slice(0, 60) : e)}; known: ${EVENT_NAMES.join(', ')}`,
        { field: 'events' },
      );
    }
    if (!out.includes(e as EventName)) out.push(e as EventName);
  }
  return { url, secret, events: out };
}

/** The delivery engine of one sandbox. */
export class WebhookDelivery {
  readonly options: Required<DeliveryOptions>;
  private readonly agent: Agent;

  constructor(
    private readonly ctx: SandboxContext,
    options: DeliveryOptions = {},
  ) {
    this.options = { ...DEFAULT_DELIVERY, ...options };
    // unref'd sockets: a receiver that hangs never keeps a stopped sandbox's process alive
    const connect = buildConnector({ timeout: this.options.timeoutMs });
    this.agent = new Agent({
      connect: (opts, cb) =>
        connect(opts, (err, socket) => {
          socket?.unref();
          cb(err, socket as never);
        }),
      keepAliveTimeout: 1_000,
      connections: 16,
    });
    attachEventBus(ctx.store, ctx.events);
    ctx.events.subscribe(
      (e) => this.onEvent(e),
      (event, userId) => this.wanted(event, userId),
    );
    ctx.store.onUserDeleted((userId) => {
      for (const [id, h] of this.state().hooks) if (h.userId === userId) this.state().hooks.delete(id);
    });
  }

  state(): WebhookState {
    return this.ctx.store.area('webhooks', () => new WebhookState());
  }

  add(r: Omit<WebhookRecord, 'id' | 'created'>): WebhookRecord {
    const st = this.state();
    if (st.hooks.size >= MAX_HOOKS) throw badRequest(`at most ${MAX_HOOKS} webhooks can be registered`);
    const rec: WebhookRecord = { ...r, id: this.ctx.store.ids.next(), created: this.ctx.clock.now() };
    st.hooks.set(rec.id, rec);
    return rec;
  }

  remove(id: string): boolean {
    const st = this.state();
    const had = st.hooks.delete(id);
    for (const [key, q] of st.queues) {
      if (key !== id && !key.startsWith(`${id}\u0000`)) continue;
      for (const job of q.jobs) this.giveUp(st, job, 'the registration was deleted');
      q.jobs.length = 0;
    }
    return had;
  }

  /** The registrations an event goes to. */
  matching(e: Pick<SandboxEvent, 'event' | 'userId'>): WebhookRecord[] {
    return [...this.state().hooks.values()].filter((h) => this.wants(h, e.event, e.userId));
  }

  private wants(h: WebhookRecord, event: EventName, userId: string): boolean {
    if (!h.events.includes(event) || h.disabled) return false;
    if (h.userId) return h.userId === userId;
    if (h.source !== 'v2' || !h.clientId) return true;
    // an Events v2 endpoint hears of the users of its own app (and of users no client owns)
    const owner = this.ctx.store.users.get(userId)?.clientId;
    return !owner || owner === h.clientId;
  }

  /** Whether any registration asks for such an event (else onEvent does nothing with it). */
  private wanted(event: EventName, userId: string): boolean {
    const hooks = this.state().hooks;
    if (hooks.size === 0) return false;
    for (const h of hooks.values()) if (this.wants(h, event, userId)) return true;
    return false;
  }

  private onEvent(e: SandboxEvent): void {
    const st = this.state();
    for (const hook of this.matching(e)) {
      const d = this.newDelivery(st, hook, e, this.bodyFor(hook, e));
      this.enqueue(st, hook, { event: e, attempts: 0, deliveryId: d.id });
    }
  }

  /**
   * v1: {event, content, webhook, webHook}: the registration as the vendor's guides show it
   * (`webhook`, the refresh:finished example's fields) and as spec 6 names it (`webHook`: secret,
   * url, events), so that a receiver written to either finds its secret. v2: {context, content,
   * event} as the reference's examples.
   */
  private bodyFor(hook: WebhookRecord, e: SandboxEvent): string {
    if (hook.source !== 'v2')
      return JSON.stringify({
        event: e.event,
        content: e.content,
        webhook: {
          id: hook.id,
          ...(hook.userId !== undefined ? { userId: hook.userId } : {}),
          secret: hook.secret,
          url: hook.url,
          ...(hook.clientId !== undefined ? { clientId: hook.clientId } : {}),
          global: hook.userId === undefined,
          events: hook.events,
        },
        webHook: { secret: hook.secret, url: hook.url, events: hook.events },
      });
    const externalUserId = this.ctx.store.users.get(e.userId)?.externalUserId;
    return JSON.stringify({
      context: { userId: e.userId, ...(externalUserId !== undefined ? { externalUserId } : {}) },
      content: e.content,
      event: e.event,
    });
  }

  private newDelivery(
    st: WebhookState,
    hook: WebhookRecord,
    e: Pick<SandboxEvent, 'event' | 'userId' | 'orderKey'>,
    body: string,
    resendOf?: string,
  ): DeliveryRecord {
    const d: DeliveryRecord = {
      id: this.ctx.store.ids.next(),
      endpointId: hook.id,
      kind: hook.source === 'v2' ? 'v2' : 'v1',
      event: e.event,
      url: hook.url,
      userId: e.userId,
      orderKey: e.orderKey,
      status: 'pending',
      attempts: 0,
      created: this.ctx.clock.now(),
      ...(resendOf ? { resendOf } : {}),
      body,
    };
    st.deliveries.set(d.id, d);
    if (st.deliveries.size > MAX_DELIVERIES) {
      for (const id of st.deliveries.keys()) {
        if (st.deliveries.size <= MAX_DELIVERIES) break;
        st.deliveries.delete(id);
      }
    }
    return d;
  }

  private enqueue(st: WebhookState, hook: WebhookRecord, job: Job): void {
    // v2: in order per endpoint; v1: in order per endpoint and key (a credentials id, an account)
    const key = hook.source === 'v2' ? hook.id : `${hook.id}\u0000${job.event.orderKey}`;
    let q = st.queues.get(key);
    if (!q) st.queues.set(key, (q = { jobs: [], running: false }));
    if (q.jobs.length >= MAX_QUEUE) {
      this.record(st, hook.id, job, 'queue-full', false);
      this.giveUp(st, job, 'queue-full');
      return;
    }
    q.jobs.push(job);
    void this.pump(st, hook.id, key, q);
  }

  /** Delivers a recorded delivery again: the same body (a fresh signature for v2), as a new delivery. */
  resend(id: string): DeliveryRecord | undefined {
    const st = this.state();
    const old = st.deliveries.get(id);
    if (!old) return undefined;
    const hook = st.hooks.get(old.endpointId);
    if (!hook) throw badRequest(`the registration ${old.endpointId} of delivery ${id} no longer exists`);
    const d = this.newDelivery(st, hook, old, old.body, old.id);
    const event: SandboxEvent = {
      event: old.event,
      userId: old.userId,
      content: {},
      orderKey: old.orderKey,
      at: this.ctx.clock.now(),
    };
    this.enqueue(st, hook, { event, attempts: 0, deliveryId: d.id });
    return d;
  }

  private giveUp(st: WebhookState, job: Job, why: string): void {
    const d = st.deliveries.get(job.deliveryId);
    if (d && d.status === 'pending') {
      d.status = 'failed';
      d.lastError ??= why;
      d.nextRetryAt = undefined;
    }
  }

  /** Whether a failed attempt is tried again: v1 always, v2 on 408, 429 and 5xx only. */
  private retryable(hook: WebhookRecord, job: Job, outcome: number | string): boolean {
    if (hook.source !== 'v2') return job.attempts < this.options.maxAttempts;
    if (job.attempts >= this.options.v2MaxAttempts) return false;
    return outcome === 408 || outcome === 429 || (typeof outcome === 'number' && outcome >= 500);
  }

  /** Delivers the queue's head until it is empty; one attempt in flight per queue. */
  private async pump(st: WebhookState, hookId: string, key: string, q: Queue): Promise<void> {
    if (q.running) return;
    q.running = true;
    try {
      while (q.jobs.length > 0) {
        // a reset() replaced the state, or the registration is gone: nothing more to deliver
        const hook = st.hooks.get(hookId);
        if (this.state() !== st || !hook) {
          for (const job of q.jobs) this.giveUp(st, job, 'the registration was deleted');
          q.jobs.length = 0;
          break;
        }
        const job = q.jobs[0]!;
        job.attempts++;
        const d = st.deliveries.get(job.deliveryId);
        const body = d?.body ?? this.bodyFor(hook, job.event);
        const { ok, outcome } = await this.attempt(hook, body);
        this.record(st, hookId, job, outcome, ok);
        const again = !ok && this.retryable(hook, job, outcome);
        const delays = this.options.retryDelaysMs;
        const wait = delays[Math.min(job.attempts - 1, delays.length - 1)] ?? 1_000;
        if (d) {
          d.attempts = job.attempts;
          d.lastAttemptAt = this.ctx.clock.now();
          if (typeof outcome === 'number') {
            d.lastStatusCode = outcome;
            d.lastError = undefined;
          } else d.lastError = outcome;
          d.status = ok ? 'delivered' : again ? 'pending' : 'failed';
          d.nextRetryAt = again ? this.ctx.clock.now() + wait : undefined;
        }
        if (!again) {
          q.jobs.shift();
          continue;
        }
        await new Promise<void>((resolve) => this.ctx.setTimeout(resolve, wait));
      }
    } finally {
      q.running = false;
      if (q.jobs.length === 0 && st.queues.get(key) === q) st.queues.delete(key);
    }
  }

  private record(st: WebhookState, hookId: string, job: Job, outcome: number | string, delivered: boolean): void {
    st.log.push({
      hookId,
      event: job.event.event,
      orderKey: job.event.orderKey,
      attempt: job.attempts,
      outcome,
      delivered,
      at: this.ctx.clock.now(),
    });
    if (st.log.length > 1000) st.log.splice(0, st.log.length - 1000);
  }

  /** One POST. Only a 2xx counts; a 3xx is a failure, never followed. */
  private async attempt(hook: WebhookRecord, body: string): Promise<{ ok: boolean; outcome: number | string }> {
    const t = this.options.timeoutMs;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'bankctl-sandbox-webhooks/1',
    };
    if (hook.source === 'v2') headers[SIGNATURE_HEADER] = signatureHeader(hook.secret, body, signatureClock.now());
    try {
      const res = await request(hook.url, {
        method: 'POST',
        body,
        headers,
        // a plain Agent without the redirect interceptor: a 3xx is returned, never followed
        dispatcher: this.agent,
        headersTimeout: t,
        bodyTimeout: t,
        signal: AbortSignal.timeout(t),
      });
      await drain(res.body, this.options.maxResponseBytes);
      return { ok: res.statusCode >= 200 && res.statusCode < 300, outcome: res.statusCode };
    } catch (err) {
      const code = (err as { code?: string }).code ?? (err as Error).name ?? 'error';
      return { ok: false, outcome: String(code) };
    }
  }
}

/** Reads at most `max` bytes of a hostile answer, then drops the rest. */
async function drain(body: AsyncIterable<Buffer> & { destroy(err?: Error): unknown }, max: number): Promise<void> {
  let n = 0;
  try {
    for await (const chunk of body) {
      n += chunk.length;
      if (n > max) {
        body.destroy();
        return;
      }
    }
  } catch {
    /* the answer's body does not matter, only its status */
  }
}

const engines = new WeakMap<SandboxContext, WebhookDelivery>();

/** The delivery engine of a sandbox (created by the webhooks area). */
export function webhookDelivery(ctx: SandboxContext, options?: DeliveryOptions): WebhookDelivery {
  let d = engines.get(ctx);
  if (!d) engines.set(ctx, (d = new WebhookDelivery(ctx, options)));
  return d;
}
