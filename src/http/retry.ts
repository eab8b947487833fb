// The one retry policy (contract: "--retries"): 429 on any method (the service rejected the
// request unprocessed and says to retry it), 408/5xx and network errors on idempotent requests,
// capped exponential backoff with full jitter, Retry-After honoured.

export const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export interface RetryConfig {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Upper bound for a server-requested Retry-After wait. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryConfig = {
  retries: 3,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** The first wait after a 409 "still being processed" (doubled for each further one). */
export const IN_PROGRESS_WAIT_MS = 1_000;

/**
 * Whether a 409 is the service's "a request with this Idempotency-Key is still being processed"
 * (the sandbox's `request.in_progress`, the reference's "Request retried while the original request
 * is still being processed"), not a conflict with the data (a revoked consent, an authorization
 * already running: `authorization.in_progress` is one of those).
 */
export function inProgressConflict(code: string | undefined, message: string): boolean {
  if (code === 'request.in_progress') return true;
  return /\boriginal request is still being processed\b|\bIdempotency-Key is still being processed\b/i.test(message);
}

/** TLS verification codes for a server certificate no trusted CA vouches for. */
export const UNTRUSTED_CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
]);

/** Failures that a retry cannot mend: the TLS peer is not the one we trust. */
const NEVER_RETRY = new Set([
  ...UNTRUSTED_CERT_CODES,
  'ERR_BANKCTL_PIN_MISMATCH',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'UND_ERR_DESTROYED',
  'UND_ERR_CLOSED',
]);

/** Network error codes for which the request cannot have reached the server. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether a request that failed with this network error code may have reached the service (and been carried out). */
export function mayHaveArrived(errorCode: string | undefined): boolean {
  return errorCode === undefined || !(NEVER_SENT.has(errorCode) || NEVER_RETRY.has(errorCode));
}

export interface AttemptOutcome {
  method: string;
  /** Whether the caller declared the request safe to resend (e.g. ingest keyed by externalId). */
  idempotent?: boolean;
  /** 0 for the first retry decision, 1 for the second... */
  attempt: number;
  status?: number;
  retryAfter?: string | null;
  errorCode?: string;
  nowMs: number;
  /**
   * A 409 that says an earlier request with the same Idempotency-Key is still being processed
   * (inProgressConflict): sent again with that key, it gets the first request's answer once ready.
   */
  inProgress?: boolean;
}

export interface RetryDecision {
  retry: boolean;
  delayMs: number;
  reason?: string;
  /** Not retried: the service asked for a longer wait than maxRetryAfterMs (this long, in ms). */
  waitMs?: number;
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export function decideRetry(o: AttemptOutcome, cfg: RetryConfig, random: () => number): RetryDecision {
  if (o.attempt >= cfg.retries) return { retry: false, delayMs: 0 };
  const idempotent = o.idempotent ?? IDEMPOTENT_METHODS.has(o.method.toUpperCase());
  if (o.status !== undefined) {
    if (o.status === 409 && o.inProgress) {
      // the first request is at work: a wait of a second or more, not the backoff of a failure
      const after = parseRetryAfter(o.retryAfter, o.nowMs);
      if (after !== undefined && after > cfg.maxRetryAfterMs) return { retry: false, delayMs: 0, waitMs: after };
      const delayMs = after ?? Math.min(cfg.maxDelayMs, IN_PROGRESS_WAIT_MS * 2 ** o.attempt);
      return {
        retry: true,
        delayMs,
        reason: 'HTTP 409 (the first request with this Idempotency-Key is still being processed)',
      };
    }
    if (o.status !== 429 && (!idempotent || !isRetryableStatus(o.status))) return { retry: false, delayMs: 0 };
    const after = parseRetryAfter(o.retryAfter, o.nowMs);
    // a wait longer than we would make (a quota for the next two hours): retrying sooner only fails
    // again, so the answer is given now, with the wait the service named
    if (after !== undefined && after > cfg.maxRetryAfterMs) return { retry: false, delayMs: 0, waitMs: after };
    const delayMs = after ?? backoffDelay(o.attempt, cfg, random);
    return { retry: true, delayMs, reason: `HTTP ${o.status}` };
  }
  if (o.errorCode !== undefined) {
    if (NEVER_RETRY.has(o.errorCode)) return { retry: false, delayMs: 0 };
    if (!idempotent && !NEVER_SENT.has(o.errorCode)) return { retry: false, delayMs: 0 };
    return { retry: true, delayMs: backoffDelay(o.attempt, cfg, random), reason: o.errorCode };
  }
  return { retry: false, delayMs: 0 };
}

/** Full jitter: a uniform wait in [0, min(cap, base * 2^attempt)], never below 1/4 of it. */
export function backoffDelay(attempt: number, cfg: RetryConfig, random: () => number): number {
  const ceiling = Math.min(cfg.maxDelayMs, cfg.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 4 + (random() * (ceiling * 3)) / 4);
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === undefined || value === null || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const date = Date.parse(v);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
