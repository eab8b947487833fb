// Transaction dates as the input may give them: epoch milliseconds, or an ISO-8601 date or date-time
// (the same forms in csv, json and ndjson), checked against the calendar (no 2024-02-30).
import { ExactNumber } from '../contract/connector-wire.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
/** Whole epoch milliseconds, as the input writes them. */
export const EPOCH_MS = /^-?\d+$/;

const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The offset of "Z", "+02:00" or "-0530" in minutes; undefined when out of range. */
function offsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const h = Number(digits.slice(0, 2));
  const m = Number(digits.slice(2));
  if (h > 23 || m > 59) return undefined;
  return (zone[0] === '-' ? -1 : 1) * (h * 60 + m);
}

/** Epoch milliseconds of an ISO-8601 date (UTC midnight) or date-time, or an error message. */
export function isoDateMs(text: string): number | string {
  const m = ISO.exec(text);
  if (!m)
    return `must be epoch milliseconds or an ISO-8601 date (YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|+HH:MM]), got "${text.slice(0, 40)}"`;
  const [y, mo, d, h = 0, mi = 0, s = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) =>
    x === undefined ? undefined : Number(x),
  );
  const days = mo! >= 1 && mo! <= 12 ? DAYS[mo! - 1]! + (mo === 2 && leap(y!) ? 1 : 0) : 0;
  if (days === 0 || d! < 1 || d! > days) return `is not a date in the calendar: "${text.slice(0, 40)}"`;
  if (h! > 23 || mi! > 59 || s! > 59) return `is not a time of day: "${text.slice(0, 40)}"`;
  const offset = offsetMinutes(m[8]);
  if (offset === undefined) return `has an offset out of range: "${text.slice(0, 40)}"`;
  const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0').slice(0, 3));
  return Date.UTC(y!, mo! - 1, d!, h, mi, s, ms) - offset * 60_000;
}

/**
 * Epoch milliseconds below this are before 1973-03-03: a bank transaction dated then is almost surely
 * a date in epoch seconds (1700000000 is 2023 in seconds, 1970-01-20 in milliseconds), which the
 * service would store as 1970 without a word. An ISO-8601 date can still say 1970 on purpose.
 */
export const MIN_EPOCH_MS = 100_000_000_000;

/** What is wrong with whole epoch milliseconds that look like seconds; undefined when they do not. */
export function secondsLike(text: string): string | undefined {
  if (Math.abs(Number(text)) >= MIN_EPOCH_MS) return undefined;
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (compact && typeof isoDateMs(`${compact[1]}-${compact[2]}-${compact[3]}`) === 'number')
    return `is ${text}: a date without its dashes? Write ${compact[1]}-${compact[2]}-${compact[3]} (ISO-8601) or epoch milliseconds`;
  return `is ${text.slice(0, 20)}, which as epoch milliseconds is before 1973: epoch seconds? Give milliseconds${/^\d{9,10}$/.test(text) ? ` (${text}000)` : ''} or an ISO-8601 date`;
}

/** A date given as a string (csv always, json and ndjson when quoted) as epoch milliseconds; throws the message. */
export function dateFromText(text: string): ExactNumber {
  const t = text.trim();
  if (EPOCH_MS.test(t)) {
    const odd = secondsLike(t);
    if (odd) throw new DateError(odd);
    return new ExactNumber(t);
  }
  const ms = isoDateMs(t);
  if (typeof ms === 'string') throw new DateError(ms);
  return new ExactNumber(String(ms));
}

export class DateError extends Error {}
