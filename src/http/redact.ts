// Secrets never reach traces or error messages. Two layers: names that are always secret
// (query and form fields, headers), and the values the client has handled this run.

export const SECRET_PARAMS = new Set([
  'client_secret',
  'code',
  'authorization_code',
  'access_token',
  'refresh_token',
  'token',
  'id_token',
  'password',
  'secret',
]);

const REDACTED = '***';

export class Redactor {
  private readonly secrets = new Set<string>();

  /** Remember a value that must never be printed. Short values are ignored to avoid mangling text. */
  add(value: string | undefined | null): void {
    if (value && value.length >= 6) this.secrets.add(value);
  }

  text(s: string): string {
    let out = s;
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out;
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
    for (const key of [...u.searchParams.keys()]) {
      if (SECRET_PARAMS.has(key.toLowerCase())) u.searchParams.set(key, REDACTED);
    }
    return this.text(u.toString().replace(/%2A%2A%2A/g, REDACTED));
  }
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
  for (const [k, v] of Object.entries(form)) out[k] = SECRET_PARAMS.has(k.toLowerCase()) ? REDACTED : v;
  return out;
}
