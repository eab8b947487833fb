// What every sandbox area module receives: the router to add routes to, the store, the options,
// and the event bus that webhook delivery listens on.
import type { Router } from './router.js';
import type { MemoryStore, SandboxClock } from './store.js';

export type EventName = 'credentials:create' | 'credentials:update' | 'transaction:create' | 'transaction:update' | 'signable-operation:update';
export const EVENT_NAMES: EventName[] = ['credentials:create', 'credentials:update', 'transaction:create', 'transaction:update', 'signable-operation:update'];

export interface SandboxEvent {
  event: EventName;
  userId: string;
  content: Record<string, unknown>;
  /** Events of one key (e.g. a credentials id) are delivered in order. */
  orderKey: string;
  at: number;
}

export class EventBus {
  private readonly listeners: Array<(e: SandboxEvent) => void> = [];
  /** The latest events (between 1000 and 2000 of them), for tests and `sandbox trigger`. */
  readonly recent: SandboxEvent[] = [];
  emit(e: Omit<SandboxEvent, 'at'> & { at?: number }, now: number): void {
    const full: SandboxEvent = { ...e, at: e.at ?? now };
    this.recent.push(full);
    // trimmed in batches: a splice per event cost more than the rest of an ingest's bookkeeping
    if (this.recent.length > 2000) this.recent.splice(0, this.recent.length - 1000);
    for (const l of this.listeners) l(full);
  }
  subscribe(fn: (e: SandboxEvent) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
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
}

export interface SandboxContext {
  router: Router;
  store: MemoryStore;
  clock: SandboxClock;
  events: EventBus;
  options: Required<Pick<SandboxOptions, 'authDelayMs'>> & SandboxOptions;
  /** The public base URL, known once listening. */
  baseUrl(): string;
  linkUrl(): string;
  /** Timers that reset() and close() cancel. */
  setTimeout(fn: () => void, ms: number): NodeJS.Timeout;
}
