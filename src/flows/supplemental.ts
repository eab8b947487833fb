// What the service may put in supplementalInformation, read liberally: an array of fields, a
// serialized JSON string of them (the real service's way), an object (one field, a map of fields,
// {fields: [...]}) or a ThirdPartyAppAuthenticationPayload (android, ios and the `desktop` part the
// real service adds), or the bare eID autostart token.
// And the checks an answer must pass before it is sent.
import type { ProviderField } from '../api/providers.js';
import { readJson } from '../contract/exact-json.js';

export type SupplementalField = ProviderField & { additionalInfo?: string };

export interface ThirdPartyPayload {
  android?: { packageName?: string; requiredMinimumVersion?: number; intent?: string };
  ios?: { appStoreUrl?: string; scheme?: string; deepLinkUrl?: string };
  /** What a person at a computer opens (the real service's payload; the spec does not name it). */
  desktop?: { url?: string };
  downloadTitle?: string;
  downloadMessage?: string;
  upgradeTitle?: string;
  upgradeMessage?: string;
  [k: string]: unknown;
}

export type Supplemental =
  | { kind: 'none' }
  | { kind: 'fields'; fields: SupplementalField[] }
  | { kind: 'token'; token: string }
  | { kind: 'payload'; payload: ThirdPartyPayload }
  | { kind: 'unknown'; text: string };

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function toFields(list: unknown[]): SupplementalField[] {
  return list
    .filter(isObj)
    .map(
      (f, i) => ({ ...f, name: typeof f.name === 'string' && f.name ? f.name : `field${i + 1}` }) as SupplementalField,
    );
}

export function parseSupplemental(value: unknown, depth = 0): Supplemental {
  if (value === null || value === undefined) return { kind: 'none' };
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '' || text === 'null') return { kind: 'none' };
    if (/^[[{"]/.test(text) && depth < 3) {
      try {
        return parseSupplemental(JSON.parse(text), depth + 1);
      } catch {
        // not JSON: fall through
      }
    }
    if (/^[A-Za-z0-9._~+/=-]{8,200}$/.test(text)) return { kind: 'token', token: text };
    return { kind: 'unknown', text };
  }
  if (Array.isArray(value)) return { kind: 'fields', fields: toFields(value) };
  if (isObj(value)) {
    if (
      'android' in value ||
      'ios' in value ||
      'desktop' in value ||
      'downloadTitle' in value ||
      'upgradeTitle' in value
    )
      return { kind: 'payload', payload: value as ThirdPartyPayload };
    if (Array.isArray(value.fields)) return { kind: 'fields', fields: toFields(value.fields) };
    if (typeof value.name === 'string') return { kind: 'fields', fields: toFields([value]) };
    const entries = Object.entries(value).filter(([, v]) => isObj(v));
    if (entries.length > 0)
      return {
        kind: 'fields',
        fields: entries.map(
          ([k, v]) =>
            ({
              ...(v as object),
              name: typeof (v as { name?: unknown }).name === 'string' ? (v as { name: string }).name : k,
            }) as SupplementalField,
        ),
      };
    return { kind: 'unknown', text: JSON.stringify(value) };
  }
  return { kind: 'unknown', text: String(value) };
}

function compile(pattern: string): RegExp | undefined {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return undefined;
  }
}

export interface SelectOption {
  value: string;
  /** What a person reads; the value when the service sends no text. */
  text: string;
}

/**
 * A field's choices (the reference's selectOptions: [{value, text, iconUrl}]): its answer is one of
 * their values. Options without a string value cannot be answered and are left out; none means a
 * free-text field.
 */
export function selectOptions(f: SupplementalField): SelectOption[] {
  const list: unknown = f.selectOptions;
  if (!Array.isArray(list)) return [];
  const out: SelectOption[] = [];
  for (const o of list) {
    if (!isObj(o) || typeof o.value !== 'string' || o.value === '') continue;
    out.push({ value: o.value, text: typeof o.text === 'string' && o.text.trim() ? o.text.trim() : o.value });
  }
  return out;
}

/** "sms (SMS), app (The bank's app)": the values a script may answer, with their texts. */
export function describeOptions(options: SelectOption[]): string {
  return options.map((o) => (o.text === o.value ? o.value : `${o.value} (${o.text})`)).join(', ');
}

/** true when the answer may be sent, else the message for the person (patternError when given). */
export function validateAnswer(f: SupplementalField, value: string): true | string {
  const label = f.description || f.name;
  if (f.checkbox) return value === 'true' || value === 'false' ? true : `${label}: answer true or false`;
  if (value === '') return f.optional ? true : `${label} is required`;
  const options = selectOptions(f);
  // a choice is checked against its values only: length and pattern describe typed text
  if (options.length > 0)
    return options.some((o) => o.value === value) ? true : `${label}: answer one of ${describeOptions(options)}`;
  if (f.numeric && !/^\d+$/.test(value)) return f.patternError || `${label} must be digits only`;
  if (typeof f.minLength === 'number' && f.minLength > 0 && [...value].length < f.minLength)
    return f.patternError || `${label} must be at least ${f.minLength} characters`;
  if (typeof f.maxLength === 'number' && f.maxLength > 0 && [...value].length > f.maxLength)
    return f.patternError || `${label} must be at most ${f.maxLength} characters`;
  if (f.pattern && f.pattern !== 'true/false') {
    const re = compile(f.pattern);
    if (re && !re.test(value)) return f.patternError || `${label} does not have the expected format`;
  }
  return true;
}

/** A checkbox field's additionalInfo as a one-line account description (opt-in). */
export function describeAccount(f: SupplementalField): string {
  let info: Record<string, unknown> = {};
  try {
    // read exactly: the real service sends balance as a JSON number, whose digits must survive
    const parsed = typeof f.additionalInfo === 'string' ? readJson(f.additionalInfo) : f.additionalInfo;
    if (isObj(parsed)) info = parsed;
  } catch {
    // not JSON: the description alone
  }
  const s = (k: string) => (info[k] === undefined || info[k] === null ? '' : String(info[k]));
  const parts = [s('accountName') || f.description || f.name];
  if (s('accountType')) parts.push(`(${s('accountType')})`);
  if (s('balance')) parts.push(`${s('balance')}${s('currencyCode') ? ` ${s('currencyCode')}` : ''}`);
  if (s('iban')) parts.push(s('iban'));
  if (Array.isArray(info.portfolioTypes) && info.portfolioTypes.length > 0)
    parts.push(`[${info.portfolioTypes.join(', ')}]`);
  return parts.join(' ');
}

/** Reads --answers FILE: a JSON object, or name=value lines (# comments). */
export function parseAnswersText(text: string, file: string): Record<string, string> {
  const trimmed = text.trim();
  const out: Record<string, string> = {};
  if (trimmed.startsWith('{')) {
    let obj: unknown;
    try {
      obj = JSON.parse(trimmed);
    } catch (err) {
      throw new Error(`${file}: not valid JSON: ${(err as Error).message}`, { cause: err });
    }
    if (!isObj(obj)) throw new Error(`${file}: expected a JSON object of name: value`);
    for (const [k, v] of Object.entries(obj)) {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
        throw new Error(`${file}: the answer for "${k}" must be a string, number or boolean`);
      out[k] = String(v);
    }
    return out;
  }
  text.split(/\r?\n/).forEach((line, i) => {
    const l = line.trim();
    if (l === '' || l.startsWith('#')) return;
    const eq = l.indexOf('=');
    if (eq <= 0) throw new Error(`${file}:${i + 1}: expected name=value`);
    out[l.slice(0, eq).trim()] = l.slice(eq + 1);
  });
  return out;
}

const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v).trim());

/**
 * The text a read-only (immutable) field shows a person: a card reader's "Login using your Card
 * Reader ..." is its helpText, the code to type into the reader its value, what it is its
 * description. Lines to print, in that order, without repeats; none for an editable field.
 */
export function instructionLines(f: SupplementalField): string[] {
  if (!f.immutable) return [];
  const help = text(f.helpText);
  const label = text(f.description) || text(f.name);
  const value = text(f.value);
  const lines: string[] = [];
  if (help) lines.push(help);
  if (value) lines.push(`${label}: ${value}`);
  else if (label && !help.includes(label)) lines.push(label);
  return lines;
}

/** One line saying what a supplementalInformation holds (for tables), whatever its shape. */
export function summarizeSupplemental(value: unknown): string {
  const s = parseSupplemental(value);
  switch (s.kind) {
    case 'none':
      return '';
    case 'token':
      return `autostart token ${s.token}`;
    case 'payload': {
      const p = s.payload;
      const parts = [
        p.desktop?.url ? `desktop ${text(p.desktop.url)}` : '',
        p.ios?.deepLinkUrl ? `iOS ${text(p.ios.deepLinkUrl)}` : '',
        p.android?.intent ? `Android ${text(p.android.intent)}` : '',
      ].filter(Boolean);
      return `third-party app: ${parts.join(', ') || text(p.downloadTitle)}`;
    }
    case 'fields':
      return `fields: ${s.fields
        .map((f) => {
          const v = f.immutable && text(f.value) ? ` = ${text(f.value)}` : '';
          const options = selectOptions(f);
          const choice = options.length > 0 ? ` (one of ${options.map((o) => o.value).join('|')})` : '';
          return `${f.name}${f.immutable ? ' (read-only)' : ''}${v}${choice}`;
        })
        .join(', ')}`;
    default:
      return s.text;
  }
}
