// Amounts as people read them, built on the exact decimals of src/contract/decimal.ts (the one
// module both the CLI and the sandbox compute with): a v2 amount shown as "-0.05 SEK".
import { decimalString } from '../contract/decimal.js';
import { ServerError } from '../errors.js';
import { stripControl } from './sanitize.js';

export { addDecimals, decimalString, parseDecimal } from '../contract/decimal.js';

export interface ExactAmount {
  currencyCode?: string;
  value: { scale: string | number; unscaledValue: string | number };
}

export function isExactAmount(v: unknown): v is ExactAmount {
  if (!v || typeof v !== 'object') return false;
  const val = (v as { value?: unknown }).value;
  return !!val && typeof val === 'object' && 'unscaledValue' in val && 'scale' in val;
}

export function formatAmount(a: ExactAmount, withCurrency = true): string {
  let exact: string;
  try {
    exact = decimalString(a.value.unscaledValue, a.value.scale);
  } catch (err) {
    // the service's amount, not our bug: exit 7 as for every answer that is not the endpoint's
    throw new ServerError(
      `the service sent an amount that cannot be read exactly: ${stripControl(JSON.stringify(a.value)).slice(0, 80)} (${(err as Error).message})`,
      { hint: '`-o json` shows the answer as sent' },
    );
  }
  const n = withMinorUnits(exact, a.currencyCode);
  return withCurrency && a.currencyCode ? `${n} ${a.currencyCode}` : n;
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
