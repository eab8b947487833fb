// Terminal bars computed on exact decimals (BigInt), shared by statistics and budgets.
import { decimalString, parseDecimal } from '../../output/money.js';

function scaled(value: string, scale: number): bigint {
  const p = parseDecimal(value);
  return p.unscaledValue * 10n ** BigInt(scale - p.scale);
}

const scaleOf = (v: string) => parseDecimal(v).scale;

/** A bar of `width` cells for value against max (both decimal strings, max > 0). */
export function bar(value: string, max: string, width: number): string {
  const s = Math.max(scaleOf(value), scaleOf(max));
  const v = scaled(value, s);
  const m = scaled(max, s);
  if (m <= 0n || v <= 0n) return '';
  // eighths of a cell for a smoother end
  const eighths = Number((v * BigInt(width) * 8n + m / 2n) / m);
  const full = Math.min(width, Math.floor(eighths / 8));
  const rest = full < width ? eighths % 8 : 0;
  return '█'.repeat(full) + (rest ? '▏▎▍▌▋▊▉'[rest - 1]! : '') || '▏';
}

/**
 * "[██████░░░░] 60%": spent against a target. Over the target the bar is full and the text says by
 * how much: 20466 spent of 5000 is "309% over" (409% of the target), 5050 of 5000 "1% over", 5001 of 5000 "<1% over".
 */
export function progress(spent: string, target: string, width = 20): string {
  const s = Math.max(scaleOf(spent), scaleOf(target));
  const v = scaled(spent, s);
  const t = scaled(target, s);
  if (t <= 0n) return '';
  const filled = Number(v >= t ? BigInt(width) : (v * BigInt(width)) / t);
  const bar = `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}]`;
  // the words first: a table too narrow cuts the end of a cell, and "5% over" must not become "5% …"
  if (v <= t) return `${(v * 100n) / t}% ${bar}`;
  const over = ((v - t) * 100n) / t;
  return `${over === 0n ? '<1' : over}% over ${bar}`;
}

/** Compares two decimal strings exactly. */
export function compareDecimal(a: string, b: string): number {
  const s = Math.max(scaleOf(a), scaleOf(b));
  const x = scaled(a, s);
  const y = scaled(b, s);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The largest of some decimal strings. */
export function maxDecimal(values: string[]): string {
  let best = '0';
  for (const v of values) {
    const s = Math.max(scaleOf(v), scaleOf(best));
    if (scaled(v, s) > scaled(best, s)) best = v;
  }
  return best;
}

export function decimalOf(unscaledValue: string | number, scale: string | number): string {
  return decimalString(String(unscaledValue), scale);
}
