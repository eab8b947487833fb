// What every sandbox area module receives: handle() to serve endpoints of the contract, the store,
// the options, and the event bus that webhook delivery listens on.
import type { Endpoint } from '../contract/index.js';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../contract/wire.js';
import type { V2Event } from '../contract/webhook-signature.js';
import type { Handler, HandlerOptions } from './router.js';
import type { MemoryStore, SandboxClock } from './store.js';

/** A v1 event (spec 6) or an Events v2 one (src/sandbox/events-v2.ts emits those). */
export type EventName = WebhookEvent | V2Event;
/** The v1 events (what v1 registrations and the v1 trigger take). */
export const EVENT_NAMES: readonly WebhookEvent[] = WEBHOOK_EVENTS;

export interface SandboxEvent {
  event: EventName;
  userId: string;
  content: Record<string, unknown>;
  /** Events of one key (e.g. a credentials id) are delivered in order. */
  orderKey: string;
  at: number;
}

/** Which events a listener acts on; it is not called for the others (they would be no-ops to it). */
export type EventFilter = (event: EventName, userId: string) => boolean;

interface Listener {
  fn: (e: SandboxEvent) => void;
  wants?: EventFilter;
}

/** The latest events are kept between RECENT_KEEP and RECENT_MAX of them. */
const RECENT_MAX = 2000;
const RECENT_KEEP = 1000;

/** An event whose content is made when first read (an own enumerable getter: JSON shows it). */
function deferredEvent(
  event: EventName,
  userId: string,
  orderKey: string,
  at: number,
  make: (i: number) => Record<string, unknown>,
  i: number,
): SandboxEvent {
  let made: Record<string, unknown> | undefined;
  return {
    event,
    userId,
    get content() {
      return (made ??= make(i));
    },
    orderKey,
    at,
  };
}

export class EventBus {
  private readonly listeners: Listener[] = [];
  /** The latest events (between 1000 and 2000 of them), for tests and `sandbox trigger`. */
  readonly recent: SandboxEvent[] = [];
  emit(e: Omit<SandboxEvent, 'at'> & { at?: number }, now: number): void {
    const full: SandboxEvent = { ...e, at: e.at ?? now };
    this.recent.push(full);
    // trimmed in batches: a splice per event cost more than the rest of an ingest's bookkeeping
    if (this.recent.length > RECENT_MAX) this.recent.splice(0, this.recent.length - RECENT_KEEP);
    for (const l of this.listeners) l.fn(full);
  }

  /**
   * The same as emit() of n events of one name and user, in order (orderKey(i), content(i)), but
   * a content is made only if someone can see it: the event ends up among the recent ones, or a
   * listener acts on it. Events that the recent list would drop again within the same call and that
   * no listener wants are never made (an ingest of 2500 transactions keeps at most 2000). With a
   * listener that did not say which events it wants, it is emit() for each, as before.
   * `deferred`: content(i) gives the same whenever it is called, so a recent event that no listener
   * takes makes it when it is first read (a content made of an ingest's body, which does not change).
   */
  emitMany(
    event: EventName,
    userId: string,
    n: number,
    orderKey: (i: number) => string,
    content: (i: number) => Record<string, unknown>,
    now: number,
    o: { deferred?: boolean } = {},
  ): void {
    if (this.listeners.some((l) => !l.wants)) {
      for (let i = 0; i < n; i++) this.emit({ event, userId, content: content(i), orderKey: orderKey(i) }, now);
      return;
    }
    const wanting = this.listeners.filter((l) => l.wants!(event, userId));
    // the recent list after n pushes trimmed as emit() trims it: the last `len` of old + new events
    let len = this.recent.length;
    for (let i = 0; i < n; i++) if (++len > RECENT_MAX) len = RECENT_KEEP;
    const kept = Math.min(n, len);
    const oldKept = len - kept;
    if (this.recent.length > oldKept) this.recent.splice(0, this.recent.length - oldKept);
    for (let i = wanting.length > 0 ? 0 : n - kept; i < n; i++) {
      const full: SandboxEvent =
        o.deferred && wanting.length === 0
          ? deferredEvent(event, userId, orderKey(i), now, content, i)
          : { event, userId, content: content(i), orderKey: orderKey(i), at: now };
      if (i >= n - kept) this.recent.push(full);
      for (const l of wanting) l.fn(full);
    }
  }

  /** Adds a listener; with `wants`, it is told only of the events that filter accepts. */
  subscribe(fn: (e: SandboxEvent) => void, wants?: EventFilter): () => void {
    const l: Listener = { fn, wants };
    this.listeners.push(l);
    return () => {
      const i = this.listeners.indexOf(l);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  seed?: number;
  /** How long simulated waits (eID, third-party app, redirect) take, ms. Default 1500. */
  authDelayMs?: number;
  clock?: SandboxClock;
  /** Extra latency added to every response, ms. */
  latencyMs?: number;
  log?: (line: string) => void;
  /** Persist the state to this file (atomic snapshots) and load it at start. */
  dataFile?: string;
  /** Serve https with a CA and server certificate generated at start; the CA PEM goes to `dir`. */
  tls?: { dir: string };
  /** Fault injection (`sandbox start --fault-rate`); admin routes under /sandbox are exempt. */
  faults?: import('./faults.js').FaultOptions;
  /** Webhook delivery: retry delays, attempts, timeout (tests use short ones). */
  webhooks?: import('./webhooks.js').DeliveryOptions;
  /** The request log keeps request and response bodies, secrets redacted (`sandbox start --bodies`). */
  bodies?: boolean;
  /** How many requests the request log keeps (default 10000). */
  logCapacity?: number;
  /** Told of the new client and connector token after a reset without keepClients. */
  onIdentity?: (id: SandboxIdentity) => void;
}

export interface SandboxIdentity {
  clientId: string;
  clientSecret: string;
  connectorToken: string;
}

export interface SandboxContext {
  /** Serves an endpoint of the contract (src/contract/): the router authenticates the caller as the entry says. */
  handle(endpoint: Endpoint, handler: Handler, opts?: HandlerOptions): void;
  store: MemoryStore;
  clock: SandboxClock;
  events: EventBus;
  options: Required<Pick<SandboxOptions, 'authDelayMs'>> & SandboxOptions;
  /** The public base URL, known once listening. */
  baseUrl(): string;
  linkUrl(): string;
  /** Timers that reset() and close() cancel. */
  setTimeout(fn: () => void, ms: number): NodeJS.Timeout;
  /** The test bench's hooks into the server (src/sandbox/bench/): set by startSandbox. */
  bench?: {
    requests: import('./bench/request-log.js').RequestLog;
    reset(keepClients: boolean): SandboxIdentity;
    /** The endpoint table the router serves. */
    table: readonly Endpoint[];
  };
}
