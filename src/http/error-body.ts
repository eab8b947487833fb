// Extracts the service's own message from every error shape the spec shows:
// problem+json (title, detail, invalidParams), the error envelope (errorMessage, errorCode,
// errorDetails omitted when empty), OAuth-style {error, error_description}, plain text, empty.
import { STATUS_CODES } from 'node:http';
import { stripControl } from '../output/sanitize.js';

export function serviceMessage(
  status: number,
  contentType: string | undefined,
  text: string,
): { message: string; body: unknown } {
  const trimmed = text.trim();
  if (trimmed === '') return { message: STATUS_CODES[status] ?? '', body: undefined };
  const looksJson = (contentType ?? '').includes('json') || trimmed.startsWith('{');
  if (looksJson) {
    try {
      const body = JSON.parse(trimmed) as unknown;
      const msg = messageFromJson(body);
      if (msg) return { message: clean(msg), body };
      return { message: clean(trimmed), body };
    } catch {
      // not JSON after all: fall through to plain text
    }
  }
  return { message: clean(trimmed), body: trimmed };
}

function messageFromJson(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const parts: string[] = [];
  // problem+json
  const title = nonEmpty(b.title);
  const detail = nonEmpty(b.detail);
  if (title) parts.push(title);
  if (detail && detail !== title) parts.push(detail);
  if (Array.isArray(b.invalidParams) && b.invalidParams.length > 0) {
    const items = b.invalidParams.map((p) => {
      const ip = (p ?? {}) as Record<string, unknown>;
      return `${String(ip.name ?? '?')}: ${String(ip.reason ?? 'invalid')}`;
    });
    parts.push(`invalid params: ${items.join('; ')}`);
  }
  if (parts.length > 0) return parts.join(': ');
  // error envelope
  const envMsg = nonEmpty(b.errorMessage) ?? nonEmpty(b.message);
  const envCode = envelopeCode(body);
  if (envMsg) {
    let msg = envCode && !envMsg.includes(envCode) ? `${envMsg} (${envCode})` : envMsg;
    if (b.errorDetails && typeof b.errorDetails === 'object') {
      const details = JSON.stringify(b.errorDetails);
      if (details !== '{}' && details !== '[]') msg += ` ${details}`;
    }
    return msg;
  }
  // OAuth-style
  const oauthDesc = nonEmpty(b.error_description);
  const oauthErr = nonEmpty(b.error);
  if (oauthDesc || oauthErr) return [oauthErr, oauthDesc].filter(Boolean).join(': ');
  if (envCode) return envCode;
  return undefined;
}

/** The error envelope's code (errorCode, else code), when the body has a non-empty one. */
export function envelopeCode(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  return nonEmpty(b.errorCode) ?? nonEmpty(b.code);
}

/** A string with something in it, trimmed. */
const nonEmpty = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

function clean(s: string): string {
  const one = stripControl(s).replace(/\s+/g, ' ').trim();
  return one.length > 500 ? `${one.slice(0, 497)}...` : one;
}
