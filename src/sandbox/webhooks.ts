// Webhook registrations and delivery (spec 6 of both documents). Every event on the bus goes to each
// registration that asked for it, as a POST of a WebHookRequest {event, content, webHook}. Delivery
// is at least once and in order per orderKey (a queue per registration and key): a receiver that
// fails (non-2xx, a redirect, a network error, a timeout) gets the same event again after a
// backoff, and later events of that key wait behind it. Redirects are never followed, and the
// receiver's answer is treated as hostile: only a few KiB of it are read.
import { Agent, buildConnector, request } from 'undici';
import type { EventName, SandboxContext, SandboxEvent } from './context.js';
import { EVENT_NAMES } from './context.js';
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
}

export const DEFAULT_DELIVERY: Required<DeliveryOptions> = {
  retryDelaysMs: [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000],
  maxAttempts: 12,
  timeoutMs: 10_000,
  maxResponseBytes: 16 * 1024,
};

export interface WebhookRecord {
  id: string;
  url: string;
  secret: string;
  events: EventName[];
  /** connector: POST /connector/webhooks; api: POST /api/v1/hooks. */
  source: 'connector' | 'api';
  clientId?: string;
  /** API-side registrations made with a user token concern that user only. */
  userId?: string;
  created: number;
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

/** Validates a registration body {url, secret, events}; 400 with the reason otherwise. */
export function validateRegistration(body: Record<string, unknown>): {
  url: string;
  secret: string;
  events: EventName[];
} {
  const url = body.url;
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
  return { url: parsed.toString(), secret, events: out };
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
    for (const key of [...st.queues.keys()]) if (key.startsWith(`${id}\u0000`)) st.queues.get(key)!.jobs.length = 0;
    return had;
  }

  /** How many registrations an event goes to. */
  matching(e: Pick<SandboxEvent, 'event' | 'userId'>): WebhookRecord[] {
    return [...this.state().hooks.values()].filter(
      (h) => h.events.includes(e.event) && (!h.userId || h.userId === e.userId),
    );
  }

  /** Whether any registration asks for such an event (else onEvent does nothing with it). */
  private wanted(event: EventName, userId: string): boolean {
    const hooks = this.state().hooks;
    if (hooks.size === 0) return false;
    for (const h of hooks.values()) if (h.events.includes(event) && (!h.userId || h.userId === userId)) return true;
    return false;
  }

  private onEvent(e: SandboxEvent): void {
    const st = this.state();
    for (const hook of this.matching(e)) {
      const key = `${hook.id}\u0000${e.orderKey}`;
      let q = st.queues.get(key);
      if (!q) st.queues.set(key, (q = { jobs: [], running: false }));
      if (q.jobs.length >= MAX_QUEUE) {
        this.record(st, hook.id, { event: e, attempts: 0 }, 'queue-full', false);
        continue;
      }
      q.jobs.push({ event: e, attempts: 0 });
      void this.pump(st, hook.id, key, q);
    }
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
          q.jobs.length = 0;
          break;
        }
        const job = q.jobs[0]!;
        job.attempts++;
        const { ok, outcome } = await this.attempt(hook, job.event);
        this.record(st, hookId, job, outcome, ok);
        if (ok || job.attempts >= this.options.maxAttempts) {
          q.jobs.shift();
          continue;
        }
        const delays = this.options.retryDelaysMs;
        const wait = delays[Math.min(job.attempts - 1, delays.length - 1)] ?? 1_000;
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
  private async attempt(hook: WebhookRecord, e: SandboxEvent): Promise<{ ok: boolean; outcome: number | string }> {
    const body = JSON.stringify({
      event: e.event,
      content: e.content,
      webHook: { secret: hook.secret, url: hook.url, events: hook.events },
    });
    const t = this.options.timeoutMs;
    try {
      const res = await request(hook.url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'user-agent': 'bankctl-sandbox-webhooks/1' },
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
