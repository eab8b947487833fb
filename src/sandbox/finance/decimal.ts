// Exact decimal arithmetic on the store's amount strings (BigInt, never a float).
import { decimalString, parseDecimal } from '../../output/money.js';

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

/** Drops trailing fractional zeros (1.50 -> 1.5, 2.00 -> 2). */
export function normalize(a: Dec): Dec {
  let { u, s } = a;
  while (s > 0 && u % 10n === 0n) {
    u /= 10n;
    s--;
  }
  return { u, s };
}

export function toStr(a: Dec): string {
  return decimalString(a.u, a.s);
}

/** A JSON number for a decimal: exact as text while it has at most 15 significant digits. */
export function toNumber(a: Dec): number {
  return Number(toStr(a));
}

/** The v2 exact amount shape: {currencyCode, value: {scale, unscaledValue}} with strings. */
export function exactAmount(
  a: Dec,
  currencyCode: string,
): { currencyCode: string; value: { scale: string; unscaledValue: string } } {
  return { currencyCode, value: { scale: String(a.s), unscaledValue: a.u.toString() } };
}

/** The Swagger CurrencyDenominatedAmount: {unscaledValue (int64), scale, currencyCode}. */
export function denominated(
  a: Dec,
  currencyCode: string,
): { unscaledValue: number | string; scale: number; currencyCode: string } {
  const n = Number(a.u);
  return { unscaledValue: Number.isSafeInteger(n) ? n : a.u.toString(), scale: a.s, currencyCode };
}
