import { describe, expect, test } from 'vitest';
import { backoffDelay, decideRetry, DEFAULT_RETRY, parseRetryAfter } from '../../src/http/retry.js';

const cfg = { ...DEFAULT_RETRY, retries: 3 };
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('retry policy', () => {
  test('429 is retried on any method and honours Retry-After in seconds', () => {
    const d = decideRetry({ method: 'POST', attempt: 0, status: 429, retryAfter: '7', nowMs: NOW }, cfg, () => 0.5);
    expect(d).toEqual({ retry: true, delayMs: 7000, reason: 'HTTP 429' });
  });

  test('429 honours Retry-After as an HTTP date', () => {
    const when = new Date(NOW + 3000).toUTCString();
    const d = decideRetry({ method: 'GET', attempt: 0, status: 429, retryAfter: when, nowMs: NOW }, cfg, () => 0.5);
    expect(d.retry).toBe(true);
    expect(d.delayMs).toBe(3000);
  });

  test('a Retry-After beyond the cap is not waited for: no retry, and the wait is named', () => {
    const d = decideRetry({ method: 'GET', attempt: 0, status: 429, retryAfter: '3600', nowMs: NOW }, cfg, () => 0.5);
    expect(d).toEqual({ retry: false, delayMs: 0, waitMs: 3_600_000 });
    const atCap = decideRetry(
      { method: 'GET', attempt: 0, status: 503, retryAfter: String(cfg.maxRetryAfterMs / 1000), nowMs: NOW },
      cfg,
      () => 0.5,
    );
    expect(atCap).toMatchObject({ retry: true, delayMs: cfg.maxRetryAfterMs });
  });

  test('5xx is retried on idempotent methods only', () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'HEAD']) {
      expect(decideRetry({ method, attempt: 0, status: 503, nowMs: NOW }, cfg, () => 0).retry).toBe(true);
    }
    expect(decideRetry({ method: 'POST', attempt: 0, status: 500, nowMs: NOW }, cfg, () => 0).retry).toBe(false);
    expect(
      decideRetry({ method: 'POST', idempotent: true, attempt: 0, status: 500, nowMs: NOW }, cfg, () => 0).retry,
    ).toBe(true);
  });

  test('4xx other than 408 and 429 are never retried', () => {
    for (const status of [400, 401, 403, 404, 409, 410, 412]) {
      expect(decideRetry({ method: 'GET', attempt: 0, status, nowMs: NOW }, cfg, () => 0).retry).toBe(false);
    }
    expect(decideRetry({ method: 'GET', attempt: 0, status: 408, nowMs: NOW }, cfg, () => 0).retry).toBe(true);
  });

  test('network errors: idempotent requests always, POST only when the request cannot have been sent', () => {
    expect(decideRetry({ method: 'GET', attempt: 0, errorCode: 'ECONNRESET', nowMs: NOW }, cfg, () => 0).retry).toBe(
      true,
    );
    expect(decideRetry({ method: 'POST', attempt: 0, errorCode: 'ECONNRESET', nowMs: NOW }, cfg, () => 0).retry).toBe(
      false,
    );
    expect(decideRetry({ method: 'POST', attempt: 0, errorCode: 'ECONNREFUSED', nowMs: NOW }, cfg, () => 0).retry).toBe(
      true,
    );
  });

  test('stops after --retries attempts', () => {
    expect(decideRetry({ method: 'GET', attempt: 3, status: 503, nowMs: NOW }, cfg, () => 0).retry).toBe(false);
    expect(
      decideRetry({ method: 'GET', attempt: 0, status: 503, nowMs: NOW }, { ...cfg, retries: 0 }, () => 0).retry,
    ).toBe(false);
  });

  test('backoff grows exponentially, is capped, and jitter stays within [ceiling/4, ceiling]', () => {
    const schedule = [0, 1, 2, 3, 4, 5, 6, 7].map((a) => backoffDelay(a, cfg, () => 1));
    expect(schedule).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(backoffDelay(2, cfg, () => 0)).toBe(250);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(3, cfg, Math.random);
      expect(d).toBeGreaterThanOrEqual(500);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });

  test('unreadable Retry-After falls back to backoff', () => {
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter('0', NOW)).toBe(0);
    const d = decideRetry({ method: 'GET', attempt: 1, status: 429, retryAfter: 'soon', nowMs: NOW }, cfg, () => 1);
    expect(d.delayMs).toBe(500);
  });
});
