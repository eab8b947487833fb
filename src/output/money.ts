// Amounts as people read them, built on the exact decimals of src/contract/decimal.ts (the one
// module both the CLI and the sandbox compute with): a v2 amount shown as "-0.05 SEK".
import { decimalString } from '../contract/decimal.js';

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
  const n = decimalString(a.value.unscaledValue, a.value.scale);
  return withCurrency && a.currencyCode ? `${n} ${a.currencyCode}` : n;
}
