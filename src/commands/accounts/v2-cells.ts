// Cells of the data v2 and connectivity v2 reads: an amount {currencyCode|currency, value: {scale,
// unscaledValue}} (strings or integers, as the reference writes them) as "-0.05 SEK", exactly.
import { decimalString } from '../../contract/decimal.js';
import type { Column } from '../../output/render.js';

export function v2Money(v: unknown): string {
  if (!v || typeof v !== 'object') return '';
  const a = v as { currencyCode?: unknown; currency?: unknown; value?: { scale?: unknown; unscaledValue?: unknown } };
  if (!a.value || a.value.scale === undefined || a.value.unscaledValue === undefined) return '';
  try {
    const n = decimalString(String(a.value.unscaledValue), String(a.value.scale));
    const cur = typeof a.currencyCode === 'string' ? a.currencyCode : typeof a.currency === 'string' ? a.currency : '';
    return cur ? `${n} ${cur}` : n;
  } catch {
    return '';
  }
}

export const moneyCol = (header: string, path: string): Column => ({ header, path, format: (v) => v2Money(v) });
