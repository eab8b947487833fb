// Amounts as people read them, built on the exact decimals of src/contract/decimal.ts (the one
// module both the CLI and the sandbox compute with): a v2 amount shown as "-0.05 SEK".
// The one reader of an {unscaledValue, scale} amount (exactValue): integers, bounded, or exit 7.
import { decimalString } from '../contract/decimal.js';
import { ExactNumber, writeJson } from '../contract/exact-json.js';
import { ServerError } from '../errors.js';
import { terminalJson } from './terminal.js';
import { stripControl } from './sanitize.js';

export { addDecimals, decimalString, parseDecimal } from '../contract/decimal.js';

type Scaled = { scale: string | number; unscaledValue: string | number };

/**
 * An amount object: v2's `{currencyCode, value: {unscaledValue, scale}}`, or the flat one of v1's
 * currencyDenominated* fields and the finance areas (`{unscaledValue, scale, currencyCode}`).
 */
export type ExactAmount = { currencyCode?: string } & ({ value: Scaled } | Scaled);

const isScaled = (v: unknown): v is Scaled => !!v && typeof v === 'object' && 'unscaledValue' in v && 'scale' in v;

export function isExactAmount(v: unknown): v is ExactAmount {
  if (!v || typeof v !== 'object' || v instanceof ExactNumber) return false;
  // flat only with its currency: a v2 amount's bare value ({unscaledValue, scale}) names none
  return isScaled((v as { value?: unknown }).value) || (isScaled(v) && 'currencyCode' in v);
}

/** An amount as "-0.05 SEK": exactly, or a ServerError naming `field` (exactValue's bounds). */
export function formatAmount(a: ExactAmount, withCurrency = true, field = 'amount'): string {
  const nested = 'value' in a && isScaled(a.value);
  const { unscaledValue, scale } = nested ? a.value : (a as Scaled);
  const n = withMinorUnits(exactValue(unscaledValue, scale, nested ? `${field}.value` : field), a.currencyCode);
  return withCurrency && a.currencyCode ? `${n} ${visibleCode(a.currencyCode)}` : n;
}

/**
 * A currency code as sent, or, when it holds control characters, escape sequences or bidi
 * controls, its JSON-escaped text in quotes: stripped, "ESC]0;x BEL SE RLO K" would read as a valid
 * SEK that the service never sent.
 */
export function visibleCode(code: string): string {
  if (!/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/.test(code)) return code;
  return terminalJson(JSON.stringify(code));
}

/** The largest scale an {unscaledValue, scale} amount may have: beyond it, it is no amount (and no cell). */
export const MAX_SCALE = 100;
/** The largest exponent of a JSON number shown as a decimal (1e400 is 401 digits; 1e1000000 is no amount). */
export const MAX_EXPONENT = 1000;
/** The most digits an amount may have. */
export const MAX_DIGITS = 400;

/** A value as a message shows it: JSON, cut short. */
function shown(v: unknown): string {
  let text: string;
  if (v instanceof ExactNumber) text = v.text;
  else {
    try {
      text = writeJson(v) ?? String(v);
    } catch {
      text = String(v);
    }
  }
  text = stripControl(text);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** The ServerError (exit 7) for an amount that is there but cannot be read exactly, naming the field. */
export function unreadable(field: string, v: unknown, why: string): ServerError {
  return new ServerError(
    `the service sent an amount that cannot be read exactly: ${field} is ${v === undefined ? 'missing' : shown(v)} (${why})`,
    { hint: '`-o json` shows the answer as sent' },
  );
}

/** The text of a JSON integer as sent ("-5", 1234, an ExactNumber literal), else undefined. */
function integerText(v: unknown): string | undefined {
  let text: string;
  if (typeof v === 'string') text = v;
  else if (typeof v === 'number') text = Number.isFinite(v) ? String(v) : '';
  else if (v instanceof ExactNumber) text = v.text;
  else return undefined;
  return /^[+-]?\d+$/.test(text) ? text : undefined;
}

/** unscaledValue / 10^scale exactly, the fields checked: integers, at most MAX_DIGITS digits, |scale| <= MAX_SCALE. */
export function exactValue(unscaledValue: unknown, scale: unknown, field: string): string {
  const u = integerText(unscaledValue);
  if (u === undefined) throw unreadable(`${field}.unscaledValue`, unscaledValue, 'not an integer');
  if (u.replace(/^[+-]/, '').length > MAX_DIGITS)
    throw unreadable(`${field}.unscaledValue`, unscaledValue, `more than ${MAX_DIGITS} digits`);
  const s = integerText(scale);
  if (s === undefined) throw unreadable(`${field}.scale`, scale, 'not an integer');
  if (!/^[+-]?0*\d{1,3}$/.test(s) || Math.abs(Number(s)) > MAX_SCALE)
    throw unreadable(`${field}.scale`, scale, `not a scale from -${MAX_SCALE} to ${MAX_SCALE}`);
  return decimalString(u, Number(s));
}

const minorUnits = new Map<string, number | undefined>();

/** The currency's minor units (SEK 2, JPY 0, KWD 3), undefined for a code ICU does not know. */
export function currencyMinorUnits(code: string): number | undefined {
  if (!minorUnits.has(code)) {
    let n: number | undefined;
    try {
      if (/^[A-Z]{3}$/.test(code))
        n = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
    } catch {
      n = undefined;
    }
    minorUnits.set(code, n);
  }
  return minorUnits.get(code);
}

/**
 * An amount typed for a currency with more decimals than the currency has (12.345 SEK), else
 * undefined: a message for the flag. A currency ICU does not know is not judged.
 */
export function beyondMinorUnits(decimal: string, currency: string, flag: string): string | undefined {
  const units = currencyMinorUnits(currency);
  const dot = decimal.indexOf('.');
  const decimals = dot < 0 ? 0 : decimal.replace(/0+$/, '').length - dot - 1;
  if (units === undefined || decimals <= units) return undefined;
  return `${flag} ${decimal} has ${decimals} decimal${decimals === 1 ? '' : 's'}; ${currency} has ${units === 0 ? 'none' : units}`;
}

/**
 * A decimal written with at least the currency's minor units ("5000" SEK is "5000.00"), never
 * fewer digits than it has: an amount is shown exactly, the same way everywhere.
 */
export function withMinorUnits(decimal: string, currency: string | undefined): string {
  if (!currency || !/^[+-]?\d+(\.\d+)?$/.test(decimal)) return decimal;
  const units = currencyMinorUnits(currency);
  if (!units) return decimal;
  const dot = decimal.indexOf('.');
  const frac = dot < 0 ? 0 : decimal.length - dot - 1;
  if (frac >= units) return decimal;
  return `${dot < 0 ? `${decimal}.` : decimal}${'0'.repeat(units - frac)}`;
}
