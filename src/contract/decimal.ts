// Exact decimals, the one module both sides use: amounts as digit strings and BigInt, never a float.
// unscaledValue / 10^scale is computed on the digits, so "-5" at scale 2 is "-0.05" and 19-digit
// values stay exact. The CLI formats with it (output/money.ts), the sandbox computes with it.

// ---- text <-> {unscaledValue, scale} ---------------------------------------------------------

/** The decimal text of unscaledValue / 10^scale: ("-5", 2) -> "-0.05", (15, -2) -> "1500". */
export function decimalString(unscaledValue: string | number | bigint, scale: string | number): string {
  const raw = typeof unscaledValue === 'bigint' ? unscaledValue.toString() : String(unscaledValue).trim();
  if (!/^[+-]?\d+$/.test(raw)) throw new Error(`not an integer unscaledValue: ${JSON.stringify(raw)}`);
  const s = Number(scale);
  if (!Number.isInteger(s)) throw new Error(`not an integer scale: ${JSON.stringify(scale)}`);
  const negative = raw.startsWith('-');
  let digits = raw.replace(/^[+-]/, '').replace(/^0+(?=\d)/, '');
  // zero at any negative scale is 0, not "000" (0 x 10^2)
  if (s <= 0) return digits === '0' ? '0' : `${negative ? '-' : ''}${digits}${'0'.repeat(-s)}`;
  digits = digits.padStart(s + 1, '0');
  const intPart = digits.slice(0, digits.length - s);
  const frac = digits.slice(digits.length - s);
  const isZero = /^0+$/.test(intPart + frac);
  return `${negative && !isZero ? '-' : ''}${intPart}.${frac}`;
}

/** Parses a plain decimal string ("-12.50", "3", ".5") into {unscaledValue, scale} exactly. */
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

// ---- number literals (with exponents) ---------------------------------------------------------

/** A number's text in the loose form people and services write: sign, digits, point, exponent. */
const NUMBER_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** {unscaledValue, scale} as strings for any number text ("-0.05", "10", "1.5e3"); undefined if it is none. */
export function numberParts(text: string): { unscaledValue: string; scale: string } | undefined {
  const m = NUMBER_TEXT.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const neg = m[1] === '-';
  let digits = (m[2] ?? '') + (m[3] ?? '');
  let scale = (m[3] ?? '').length - Number(m[4] ?? 0);
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  digits = digits.replace(/^0+(?=\d)/, '') || '0';
  const zero = /^0+$/.test(digits);
  return { unscaledValue: `${neg && !zero ? '-' : ''}${digits}`, scale: String(scale) };
}

const SCALES = Array.from({ length: 41 }, (_, i) => String(i));

/** numberParts of the usual form -?digits(.digits)?, read without a regex (the sandbox's hot path). */
function plainParts(text: string): { unscaledValue: string; scale: string } | undefined {
  const n = text.length;
  const neg = text.charCodeAt(0) === 45;
  const start = neg ? 1 : 0;
  let dot = -1;
  let lead = -1;
  for (let k = start; k < n; k++) {
    const c = text.charCodeAt(k);
    if (c === 46) {
      if (dot >= 0) return undefined;
      dot = k;
    } else if (c < 48 || c > 57) return undefined;
    else if (lead < 0 && c !== 48) lead = k;
  }
  // digits on both sides of a point, and at least one digit
  if (n === start || dot === start || dot === n - 1) return undefined;
  const scale = dot < 0 ? 0 : n - dot - 1;
  if (scale >= SCALES.length) return undefined;
  if (lead < 0) return { unscaledValue: '0', scale: SCALES[scale]! };
  const digits = dot < lead ? text.slice(lead) : text.slice(lead, dot) + text.slice(dot + 1);
  return { unscaledValue: neg ? `-${digits}` : digits, scale: SCALES[scale]! };
}

/** {unscaledValue, scale} as strings, from a decimal text such as "-0.05", "10", "1.5e3"; zero when it is none. */
export function exactParts(text: string): { unscaledValue: string; scale: string } {
  return plainParts(text) ?? numberParts(text) ?? { unscaledValue: '0', scale: '0' };
}

/** The decimal text of a stored amount, normalised (no exponent, no leading +). */
export function decimalText(text: string): string {
  const { unscaledValue, scale } = exactParts(text);
  return decimalString(unscaledValue, scale);
}

/** The largest exponent a connector amount may carry ("1e40"); beyond it the amount is refused. */
export const MAX_EXPONENT = 40;

/** The exact decimal string of a JSON number's text: "-98.50" -> "-98.50", "1.5e3" -> "1500". */
export function numberTextToDecimal(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new Error(`not a number: ${text}`);
  if (m[4] === undefined) return text;
  const exp = Number(m[4]);
  if (Math.abs(exp) > MAX_EXPONENT) throw new RangeError(`exponent out of range: ${text.slice(0, 40)}`);
  let digits = m[2]! + (m[3] ?? '');
  let point = m[2]!.length + exp;
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  } else if (point > digits.length) digits = digits + '0'.repeat(point - digits.length);
  let intPart = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const frac = digits.slice(point);
  if (intPart === '') intPart = '0';
  return `${m[1]}${intPart}${frac ? `.${frac}` : ''}`;
}

/**
 * A number as exact decimal text, whatever form it came in: a JS number (its shortest text), a
 * value that keeps its literal (an ExactNumber, by its toString), or a numeric string ("1.5e3" ->
 * "1500"). Undefined when it is not a number.
 */
export function exactDecimal(v: unknown): string | undefined {
  if (v === undefined || v === null || typeof v === 'boolean') return undefined;
  if (typeof v === 'number' && !Number.isFinite(v)) return undefined;
  const p = numberParts(String(v));
  return p ? decimalString(p.unscaledValue, p.scale) : undefined;
}

// ---- arithmetic (the sandbox's computed amounts) ----------------------------------------------

export interface Dec {
  u: bigint;
  s: number;
}

export const ZERO: Dec = { u: 0n, s: 0 };

export function dec(text: string): Dec {
  const p = parseDecimal(text);
  return { u: p.unscaledValue, s: p.scale };
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const s = Math.max(a.s, b.s);
  return [a.u * 10n ** BigInt(s - a.s), b.u * 10n ** BigInt(s - b.s), s];
}

export function add(a: Dec, b: Dec): Dec {
  const [x, y, s] = align(a, b);
  return { u: x + y, s };
}

export function sub(a: Dec, b: Dec): Dec {
  const [x, y, s] = align(a, b);
  return { u: x - y, s };
}

export function neg(a: Dec): Dec {
  return { u: -a.u, s: a.s };
}

export function abs(a: Dec): Dec {
  return a.u < 0n ? neg(a) : a;
}

export function cmp(a: Dec, b: Dec): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function sum(values: Iterable<Dec>): Dec {
  let acc = ZERO;
  for (const v of values) acc = add(acc, v);
  return acc;
}

/** Multiplies by a small rational num/den, rounding half-even to `scale` digits. */
export function mulRatio(a: Dec, num: bigint, den: bigint, scale = a.s): Dec {
  // value = a.u * num / (den * 10^a.s); result unscaled at `scale`
  const n = a.u * num * 10n ** BigInt(scale);
  const d = den * 10n ** BigInt(a.s);
  return { u: divHalfEven(n, d), s: scale };
}

export function divHalfEven(n: bigint, d: bigint): bigint {
  if (d < 0n) return divHalfEven(-n, -d);
  let q = n / d;
  const r = n - q * d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice > d || (twice === d && q % 2n !== 0n)) q += r < 0n ? -1n : 1n;
  return q;
}

export function toStr(a: Dec): string {
  return decimalString(a.u, a.s);
}

/** A JSON number for a decimal: exact as text while it has at most 15 significant digits. */
export function toNumber(a: Dec): number {
  return Number(toStr(a));
}

// ---- the wire's amount shapes -------------------------------------------------------------------

/** The v2 exact amount: {currencyCode, value: {scale, unscaledValue}} with strings. */
export interface ExactAmountWire {
  currencyCode: string;
  value: { scale: string; unscaledValue: string };
}

export function exactAmount(a: Dec, currencyCode: string): ExactAmountWire {
  return { currencyCode, value: { scale: String(a.s), unscaledValue: a.u.toString() } };
}

/** The Swagger's CurrencyDenominatedAmount. unscaledValue is an int64 (a string when it does not fit a double exactly). */
export interface DenominatedAmount {
  unscaledValue: number | string;
  scale: number;
  currencyCode: string;
}

export function denominated(a: Dec, currencyCode: string): DenominatedAmount {
  const n = Number(a.u);
  return { unscaledValue: Number.isSafeInteger(n) ? n : a.u.toString(), scale: a.s, currencyCode };
}
