// Fault injection: a share of requests answered with 429 (with Retry-After), 500, 503, a dropped
// connection, or a slow body. Deterministic under a seed, so a failing run can be replayed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { envelope, HttpFailure, problem } from './http.js';
import { FAULT_KINDS, type FaultKind } from '../contract/faults.js';

export { FAULT_KINDS, type FaultKind };

export interface FaultOptions {
  /** Share of requests that get a fault, 0..1. */
  rate: number;
  kinds?: FaultKind[];
  seed?: number;
  /** Retry-After of injected 429s, seconds. */
  retryAfterS?: number;
  /** How long a slow body takes, ms. */
  slowMs?: number;
}

/** mulberry32: a tiny seeded PRNG. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private readonly random: () => number;
  private readonly kinds: FaultKind[];
  readonly counts: Record<string, number> = {};

  constructor(private readonly o: FaultOptions) {
    this.random = o.seed === undefined ? Math.random : seededRandom(o.seed);
    this.kinds = o.kinds && o.kinds.length > 0 ? o.kinds : [...FAULT_KINDS];
  }

  /** Decides this request's fault: throws the failure, drops the socket, or marks a slow body. */
  apply(req: IncomingMessage, res: ServerResponse): 'dropped' | undefined {
    if (this.o.rate <= 0 || this.random() >= this.o.rate) return undefined;
    const kind = this.kinds[Math.floor(this.random() * this.kinds.length)]!;
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    switch (kind) {
      case '429': {
        const f = problem(
          429,
          'about:errors:too-many-requests',
          'Too Many Requests',
          'injected by the sandbox (--fault-rate)',
        );
        f.headers['retry-after'] = this.retryAfter();
        throw f;
      }
      case '500':
        throw envelope(500, 'internal_error', 'injected server error (--fault-rate)');
      case '503':
        throw new HttpFailure(
          503,
          { errorMessage: 'injected unavailability (--fault-rate)', errorCode: 'unavailable' },
          'application/json',
          { 'retry-after': '0' },
        );
      case 'reset':
        req.socket.destroy();
        return 'dropped';
      case 'slow':
        (res as ServerResponse & { slowBodyMs?: number }).slowBodyMs = this.o.slowMs ?? 2000;
        return undefined;
    }
  }

  retryAfter(): string {
    return String(this.o.retryAfterS ?? 1);
  }
}
