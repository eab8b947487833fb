// Secrets never reach the request log: JSON keys and form fields that name one are replaced. Numbers
// keep the digits they were sent with (an amount is logged as written, never through a double).
import { ExactNumber, readJson, writeJson } from '../../contract/exact-json.js';

// `retire` is the connector token that POST /sandbox/connector-tokens ends
const SECRET = /secret|password|passcode|token|^code$|authorization|otp|pin$|^information$|apikey|api_key|^retire$/i;
const MASK = '[redacted]';

function redactValue(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(redactValue);
  if (v instanceof ExactNumber) return v;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v as Record<string, unknown>))
      out[k] = SECRET.test(k) && val !== null && val !== undefined && val !== '' ? MASK : redactValue(val);
    return out;
  }
  return v;
}

/** The body with its secrets replaced; a body that is neither JSON nor a form is kept only when short text. */
export function redactBody(text: string, contentType: string | undefined): string {
  if (text === '') return '';
  const type = String(contentType ?? '').toLowerCase();
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return writeJson(redactValue(readJson(text)));
    } catch {
      return `[${Buffer.byteLength(text)} bytes of malformed JSON]`;
    }
  }
  if (type.includes('x-www-form-urlencoded')) {
    const form = new URLSearchParams(text);
    for (const k of [...form.keys()]) if (SECRET.test(k)) form.set(k, MASK);
    return form.toString();
  }
  if (type.startsWith('text/plain') && text.length <= 4096 && !/[A-Za-z0-9_-]{32,}/.test(text)) return text;
  return `[${Buffer.byteLength(text)} bytes of ${type.split(';')[0] || 'unknown content'}]`;
}
