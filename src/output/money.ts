// Exact decimal amounts. unscaledValue / 10^scale is computed on the digit string, never through a
// float, so "-5" at scale 2 prints "-0.05" and 19-digit values stay exact.

export interface ExactAmount {
  currencyCode?: string;
  value: { scale: string | number; unscaledValue: string | number };
}

export function decimalString(unscaledValue: string | number | bigint, scale: string | number): string {
  const raw = typeof unscaledValue === 'bigint' ? unscaledValue.toString() : String(unscaledValue).trim();
  if (!/^[+-]?\d+$/.test(raw)) throw new Error(`not an integer unscaledValue: ${JSON.stringify(raw)}`);
  const s = Number(scale);
  if (!Number.isInteger(s)) throw new Error(`not an integer scale: ${JSON.stringify(scale)}`);
  const negative = raw.startsWith('-');
  let digits = raw.replace(/^[+-]/, '').replace(/^0+(?=\d)/, '');
  if (s <= 0) return `${negative && digits !== '0' ? '-' : ''}${digits}${'0'.repeat(-s)}`;
  digits = digits.padStart(s + 1, '0');
  const intPart = digits.slice(0, digits.length - s);
  const frac = digits.slice(digits.length - s);
  const isZero = /^0+$/.test(intPart + frac);
  return `${negative && !isZero ? '-' : ''}${intPart}.${frac}`;
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

/** Parses a decimal string into {unscaledValue, scale} exactly. */
export function parseDecimal(text: string): { unscaledValue: bigint; scale: number } {
  const t = text.trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(t);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new Error(`not a decimal number: ${JSON.stringify(text)}`);
  const frac = m[3] ?? '';
  const unscaled = BigInt(`${m[1] === '-' ? '-' : ''}${m[2] || '0'}${frac}`);
  return { unscaledValue: unscaled, scale: frac.length };
}

/** Adds exact decimals given as strings, returning a decimal string. */
export function addDecimals(values: string[]): string {
  let scale = 0;
  const parsed = values.map((v) => {
    const p = parseDecimal(v);
    scale = Math.max(scale, p.scale);
    return p;
  });
  let sum = 0n;
  for (const p of parsed) sum += p.unscaledValue * 10n ** BigInt(scale - p.scale);
  return decimalString(sum, scale);
}
