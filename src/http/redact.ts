// Secrets never reach traces or error messages. Two layers: names that are always secret
// (query and form fields, headers: the one rule of src/contract/secret-names.ts), and the values the
// client has handled this run, in every form a server can send them back in: as given,
// percent-encoded (both cases, and the form encoding's "+" for a space), JSON-escaped, and base64
// (Basic credentials); plus any credential that follows an auth scheme name in text a server echoes.
// A value shorter than 6 characters (a PIN, an OTP) is hidden only where a secret's name comes just
// before it ("pin":"1234", otp=48213, "Invalid OTP 48213"): blanking its digits everywhere would
// blank dates, amounts and ids that merely share them.
import { isSecretName } from '../contract/secret-names.js';

const REDACTED = '***';

/** The forms a value can come back in from a server. */
export function encodedForms(value: string): string[] {
  const pct = encodeURIComponent(value);
  const form = new URLSearchParams({ v: value }).toString().slice(2);
  const json = JSON.stringify(value).slice(1, -1);
  const b64 = Buffer.from(value, 'utf8').toString('base64');
  return [
    value,
    pct,
    pct.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    form,
    form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    pct.replace(/%20/g, '+'),
    ...jsonForms(json),
    ...htmlForms(value),
    b64,
    b64.replace(/=+$/, ''),
    Buffer.from(value, 'utf8').toString('base64url'),
  ];
}

/**
 * A JSON string's inside as JSON encoders write it: as is, "/" as "\/" (PHP), "<>&" as \u003c...
 * (Go), anything past ASCII as \uXXXX (Python, PHP; Jackson in upper case), and both at once.
 */
function jsonForms(json: string): string[] {
  const u = (re: RegExp, upper: boolean) => (s: string) =>
    s.replace(re, (c) => {
      const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    });
  const out = new Set<string>();
  for (const base of [json, json.replace(/\//g, '\\/')])
    for (const upper of [false, true]) {
      const go = u(/[<>&]/g, upper)(base);
      out.add(base).add(go);
      for (const b of [base, go]) out.add(u(/[\u007f-\uffff]/g, upper)(b));
    }
  return [...out];
}

/** A value as an HTML page quotes it: the entities of Go, Python, PHP and the rest. */
function htmlForms(value: string): string[] {
  if (!/[&<>"']/.test(value)) return [];
  const out = new Set<string>();
  for (const [quot, apos] of [
    ['&quot;', '&#39;'],
    ['&#34;', '&#39;'],
    ['&quot;', '&#x27;'],
    ['&quot;', '&#039;'],
  ])
    out.add(
      value.replace(/[&<>"']/g, (c) =>
        c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? quot! : apos!,
      ),
    );
  return [...out];
}

/** A credential after its scheme: "Basic dXNlcjpwYXNz", "Bearer eyJ...", "Token abc..." (16+ characters). */
const SCHEME_CREDENTIAL = /\b(Basic|Bearer|Token)(\s+|%20|\+)([A-Za-z0-9+/_.~-]{16,}={0,2})/g;

export class Redactor {
  private readonly secrets = new Set<string>();
  /** Longest first, so that a secret inside another's encoding does not leave a tail behind. */
  private ordered?: string[];
  /** The values given to add(), as given. */
  private readonly added = new Set<string>();
  /** Public text shown whole even where a secret is part of it (keep()). */
  private readonly kept = new Set<string>();
  /** Values under 6 characters: hidden only after a secret's name (shortAfterName). */
  private readonly short = new Set<string>();
  private shortPattern?: RegExp;

  /** Remember a value that must never be printed (a short one only after a secret's name). */
  add(value: string | undefined | null): void {
    if (!value || this.added.has(value)) return;
    if (value.length < 6) {
      if (value.trim() !== '' && !this.short.has(value)) {
        this.short.add(value);
        this.shortPattern = undefined;
      }
      return;
    }
    // a token is added again with every request it authorises: its forms are worked out once
    this.added.add(value);
    for (const form of encodedForms(value)) if (form.length >= 6) this.secrets.add(form);
    this.ordered = undefined;
  }

  /** HTTP Basic credentials: the password, and the base64 of the whole pair as it is sent. */
  addBasic(username: string, password: string): void {
    this.add(password);
    this.add(`${username}:${password}`);
  }

  /**
   * Public text that may hold a secret's characters: the provider name `se-test-password` and the
   * sandbox's password `test-password`. It is shown whole; the text around it is still redacted.
   * A value that is itself a secret is never kept.
   */
  keep(value: string | undefined): void {
    if (value && value.length >= 6) this.kept.add(value);
  }

  text(s: string): string {
    for (const k of this.kept) {
      if (!this.added.has(k) && s.includes(k))
        return s
          .split(k)
          .map((part) => this.text(part))
          .join(k);
    }
    this.ordered ??= [...this.secrets].sort((a, b) => b.length - a.length);
    let out = s;
    for (const secret of this.ordered) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    out = out.replace(SCHEME_CREDENTIAL, (_m, scheme: string, sep: string) => `${scheme}${sep}${REDACTED}`);
    return this.short.size > 0 ? this.shortAfterName(out) : out;
  }

  /**
   * A short secret where a secret's name comes just before it: `"pin":"1234"`, `"pin":1234` (written
   * `"pin":"***"`, still JSON), `\"otp\":\"48213\"` (JSON inside a string), `otp=48213`,
   * `otp%3D48213`, `PIN: 1234`, `Invalid OTP 48213`. Not inside a longer word or number.
   */
  private shortAfterName(s: string): string {
    if (this.shortPattern === undefined) {
      const values = [...this.short]
        .flatMap((v) => [v, encodeURIComponent(v), JSON.stringify(v).slice(1, -1)])
        .sort((a, b) => b.length - a.length)
        .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      this.shortPattern = new RegExp(
        `(?<![A-Za-z0-9_])([A-Za-z][A-Za-z0-9_-]*)(?=[\\\\"'\\s:=%])((?:\\\\*["'])?\\s*(?:[:=]|%3[AaDd])?\\s*(\\\\*["'])?)(?:${[...new Set(values)].join('|')})(?![A-Za-z0-9_])`,
        'g',
      );
    }
    return s.replace(this.shortPattern, (m, name: string, sep: string, open: string | undefined) => {
      if (!isSecretName(name) || sep === '') return m;
      // a JSON number after a quoted name stays JSON: "pin":1234 -> "pin":"***"
      const quoted = open === undefined && /^"\s*:\s*$/.test(sep) ? `"${REDACTED}"` : REDACTED;
      return `${name}${sep}${quoted}`;
    });
  }

  url(raw: string): string {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      return this.text(raw);
    }
    if (u.username || u.password) {
      u.username = REDACTED;
      u.password = '';
    }
    redactParams(u.searchParams);
    // the implicit flow's answer is in the fragment: #access_token=...&state=...
    if (u.hash.includes('=')) {
      const fragment = new URLSearchParams(u.hash.slice(1));
      if (redactParams(fragment)) u.hash = fragment.toString();
    }
    return this.text(u.toString().replace(/%2A%2A%2A/g, REDACTED));
  }
}

/** The values of secret-named parameters replaced; whether there was one. */
function redactParams(params: URLSearchParams): boolean {
  let secret = false;
  for (const key of [...params.keys()]) {
    if (isSecretName(key)) {
      params.set(key, REDACTED);
      secret = true;
    }
  }
  return secret;
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (/^(authorization|proxy-authorization|cookie|set-cookie)$/i.test(k)) {
      const scheme = v.split(' ')[0];
      out[k] = scheme && scheme !== v ? `${scheme} ${REDACTED}` : REDACTED;
    } else out[k] = v;
  }
  return out;
}

export function redactForm(form: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) out[k] = isSecretName(k) ? REDACTED : v;
  return out;
}
