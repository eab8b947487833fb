// Secrets never reach the request log: JSON keys and form fields that name one are replaced. Numbers
// keep the digits they were sent with (an amount is logged as written, never through a double).
// Which names are secret is the CLI's rule too (src/contract/secret-names.ts).
import { ExactNumber, readJson, writeJson } from '../../contract/exact-json.js';
import { isSecretKey, isSecretName } from '../../contract/secret-names.js';

const MASK = '[redacted]';

function redactValue(v: unknown, parent?: string): unknown {
  if (Array.isArray(v)) return v.map((x) => redactValue(x, parent));
  if (v instanceof ExactNumber) return v;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v as Record<string, unknown>))
      out[k] = isSecretKey(k, parent) && val !== null && val !== undefined && val !== '' ? MASK : redactValue(val, k);
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
  if (type.includes('x-www-form-urlencoded')) return redactForm(text);
  if (type.startsWith('text/plain') && text.length <= 4096 && !/[A-Za-z0-9_-]{32,}/.test(text))
    // a form sent as text/plain (curl -H 'content-type: text/plain' -d client_secret=...) is still a form
    return looksLikeSecretForm(text) ? redactForm(text) : text;
  return `[${Buffer.byteLength(text)} bytes of ${type.split(';')[0] || 'unknown content'}]`;
}

function redactForm(text: string): string {
  const form = new URLSearchParams(text);
  for (const k of [...form.keys()]) if (isSecretName(k)) form.set(k, MASK);
  return form.toString();
}

/** Text with a `name=value` pair whose name is a secret's: "password=hunter2", "a=1&client_secret=x". */
function looksLikeSecretForm(text: string): boolean {
  if (!text.includes('=')) return false;
  for (const k of new URLSearchParams(text.trim()).keys()) if (isSecretName(k.trim())) return true;
  return false;
}
