// Calendar arithmetic in UTC for the finance areas: ISO dates, Swedish business days, and the
// period buckets of spec section 1 (YEARLY, MONTHLY, MONTHLY_ADJUSTED, WEEKLY, DAILY).
// Days are UTC days; a period's start is 00:00:00.000 UTC of its first day.

export const DAY_MS = 86_400_000;

export type Resolution = 'YEARLY' | 'MONTHLY' | 'MONTHLY_ADJUSTED' | 'WEEKLY' | 'DAILY';
export const RESOLUTIONS: Resolution[] = ['YEARLY', 'MONTHLY', 'MONTHLY_ADJUSTED', 'WEEKLY', 'DAILY'];

/** The salary day the MONTHLY_ADJUSTED periods break on (spec section 1's example). */
export const SALARY_DAY = 25;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Strict YYYY-MM-DD (a real calendar date, year 1000-9999) to epoch ms at 00:00 UTC. */
export function parseIsoDate(s: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1000 || mo < 1 || mo > 12 || d < 1) return undefined;
  const ms = Date.UTC(y, mo - 1, d);
  return new Date(ms).getUTCDate() === d ? ms : undefined;
}

export function isoDate(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

export function startOfDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** Easter Sunday (Gregorian, anonymous algorithm) as epoch ms. */
function easter(y: number): number {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(y, month - 1, day);
}

const holidayCache = new Map<number, Set<string>>();

/**
 * Swedish bank holidays of a year (the sandbox's market calendar): the public holidays that fall
 * on weekdays plus the de facto bank holidays Midsummer Eve, Christmas Eve and New Year's Eve.
 */
export function swedishHolidays(y: number): Set<string> {
  let s = holidayCache.get(y);
  if (s) return s;
  const e = easter(y);
  const days = [
    Date.UTC(y, 0, 1), // New Year's Day
    Date.UTC(y, 0, 6), // Epiphany
    e - 2 * DAY_MS, // Good Friday
    e + DAY_MS, // Easter Monday
    Date.UTC(y, 4, 1), // May Day
    e + 39 * DAY_MS, // Ascension Day
    Date.UTC(y, 5, 6), // National Day
    Date.UTC(y, 11, 24), // Christmas Eve
    Date.UTC(y, 11, 25), // Christmas Day
    Date.UTC(y, 11, 26), // Boxing Day
    Date.UTC(y, 11, 31), // New Year's Eve
  ];
  // Midsummer Eve: the Friday between 19 and 25 June
  for (let d = 19; d <= 25; d++) if (new Date(Date.UTC(y, 5, d)).getUTCDay() === 5) days.push(Date.UTC(y, 5, d));
  s = new Set(days.map(isoDate));
  holidayCache.set(y, s);
  return s;
}

export function isBusinessDay(ms: number): boolean {
  const d = new Date(ms);
  const wd = d.getUTCDay();
  if (wd === 0 || wd === 6) return false;
  return !swedishHolidays(d.getUTCFullYear()).has(isoDate(ms));
}

/** The salary day of a month (1-12), moved to the preceding business day when needed. */
export function salaryDate(y: number, month: number, day = SALARY_DAY): number {
  let ms = Date.UTC(y, month - 1, day);
  while (!isBusinessDay(ms)) ms -= DAY_MS;
  return ms;
}

export interface Bucket {
  label: string;
  /** First ms of the period. */
  start: number;
  /** First ms after the period. */
  end: number;
}

function ym(y: number, m: number): string {
  return `${pad(y, 4)}-${pad(m)}`;
}

/** ISO 8601 week of a day: the week-numbering year and week number. */
export function isoWeek(ms: number): { year: number; week: number; monday: number } {
  const day = startOfDay(ms);
  const wd = (new Date(day).getUTCDay() + 6) % 7; // Monday 0
  const monday = day - wd * DAY_MS;
  const thursday = monday + 3 * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return { year, week, monday };
}

/** The bucket of a resolution that contains an instant. */
export function bucketOf(res: Resolution, ms: number): Bucket {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + 1;
  switch (res) {
    case 'DAILY': {
      const start = startOfDay(ms);
      return { label: isoDate(start), start, end: start + DAY_MS };
    }
    case 'WEEKLY': {
      const w = isoWeek(ms);
      return { label: `${pad(w.year, 4)}:${pad(w.week)}`, start: w.monday, end: w.monday + 7 * DAY_MS };
    }
    case 'MONTHLY':
      return { label: ym(y, m), start: Date.UTC(y, m - 1, 1), end: Date.UTC(y, m, 1) };
    case 'YEARLY':
      return { label: pad(y, 4), start: Date.UTC(y, 0, 1), end: Date.UTC(y + 1, 0, 1) };
    case 'MONTHLY_ADJUSTED': {
      // a day on or after this month's salary day belongs to next month's period
      const day = startOfDay(ms);
      const pay = salaryDate(y, m);
      return day >= pay ? adjustedMonth(m === 12 ? y + 1 : y, m === 12 ? 1 : m + 1) : adjustedMonth(y, m);
    }
  }
}

/** The MONTHLY_ADJUSTED period named YYYY-MM: from the previous month's salary day to the day before this month's. */
export function adjustedMonth(y: number, m: number): Bucket {
  const start = m === 1 ? salaryDate(y - 1, 12) : salaryDate(y, m - 1);
  return { label: ym(y, m), start, end: salaryDate(y, m) };
}

/** The bucket after this one. */
export function nextBucket(res: Resolution, b: Bucket): Bucket {
  return bucketOf(res, b.end);
}

/** Every bucket from the one holding `from` to the one holding `to` (inclusive), at most `max`. */
export function bucketsBetween(res: Resolution, from: number, to: number, max = 100_000): Bucket[] {
  const out: Bucket[] = [];
  let b = bucketOf(res, from);
  while (b.start <= to && out.length < max) {
    out.push(b);
    b = nextBucket(res, b);
  }
  return out;
}
