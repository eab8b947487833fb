// Events v2 delivery signatures (the vendor's webhook-signature-validation guide): the header
// `X-Tink-Signature: t=<unix seconds>,v1=<hex>`, where v1 is HMAC-SHA256 with the endpoint's secret
// over `t + "." + the raw body bytes`. Both sides use this: the sandbox signs, `webhooks listen`
// verifies (constant-time compare, timestamp within a tolerance).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-tink-signature';
/** The guide: "Consider keeping the threshold at no less than 5 minutes". */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The Events v2 events of account and transaction data (the transactions-webhooks guide): the sandbox emits these. */
export const V2_DATA_EVENTS = [
  'refresh:finished',
  'account:created',
  'account:updated',
  'account-transactions:modified',
  'account-booked-transactions:modified',
  'account-transactions:deleted',
] as const;
export type V2DataEvent = (typeof V2_DATA_EVENTS)[number];

/**
 * Every event an Events v2 endpoint can subscribe to: the data events, and those the webhooks and
 * account-check guides name for other products (insights, payments, reports), which the sandbox
 * accepts in a subscription but never emits.
 */
export const V2_EVENTS = [
  ...V2_DATA_EVENTS,
  'actionable-insights:created',
  'payment:updated',
  'mandate-payment:updated',
  'reports-generation:completed',
] as const;
export type V2Event = (typeof V2_EVENTS)[number];

export function isV2Event(e: string): e is V2Event {
  return (V2_EVENTS as readonly string[]).includes(e);
}

export function isV2DataEvent(e: string): e is V2DataEvent {
  return (V2_DATA_EVENTS as readonly string[]).includes(e);
}

/** The hex HMAC-SHA256 of `t + "." + body`. */
export function v2Signature(secret: string, t: number | string, body: Buffer | string): string {
  return createHmac('sha256', secret)
    .update(`${t}.`)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
}

/** The header value for a body signed at `nowMs`. */
export function signatureHeader(secret: string, body: Buffer | string, nowMs: number): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${v2Signature(secret, t, body)}`;
}

export type SignatureCheck =
  { ok: true; t: number } | { ok: false; reason: 'missing' | 'malformed' | 'mismatch' | 'too old' | 'in the future' };

/**
 * Checks a delivery: parses `t=` and every `v1=` (other keys ignored, as the guide says), compares
 * each v1 with the expected one in constant time, and wants |now - t| within the tolerance.
 */
export function verifySignature(
  header: string | string[] | undefined,
  raw: Buffer,
  secret: string,
  nowMs: number,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): SignatureCheck {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return { ok: false, reason: 'missing' };
  let t: string | undefined;
  const sigs: string[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const k = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    if (k === 't') t = v;
    else if (k === 'v1') sigs.push(v);
  }
  if (t === undefined || !/^\d{1,12}$/.test(t) || sigs.length === 0) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(v2Signature(secret, t, raw), 'hex');
  let match = false;
  for (const s of sigs) {
    if (!/^[0-9a-fA-F]{64}$/.test(s)) continue;
    if (timingSafeEqual(expected, Buffer.from(s, 'hex'))) match = true;
  }
  if (!match) return { ok: false, reason: 'mismatch' };
  const ts = Number(t);
  const skew = nowMs / 1000 - ts;
  if (skew > toleranceSeconds) return { ok: false, reason: 'too old' };
  if (-skew > toleranceSeconds) return { ok: false, reason: 'in the future' };
  return { ok: true, t: ts };
}
