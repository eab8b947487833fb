// What the calendar verbs share: the period columns, --resolution, and date flags.
import { Option } from 'commander';
import type { Period } from '../../api/calendar.js';
import { UsageError } from '../../errors.js';
import type { Context } from '../../context.js';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const PERIOD_COLUMNS = [
  { header: 'name', path: 'name' },
  { header: 'resolution', path: 'resolution' },
  { header: 'first day', path: 'startDate', format: (v: unknown) => day(v as number) },
  { header: 'last day', path: 'endDate', format: (v: unknown) => day(v as number) },
  {
    header: 'days',
    path: '',
    format: (_v: unknown, p: unknown) =>
      String(Math.round(((p as Period).endDate - (p as Period).startDate) / 86_400_000)),
  },
];

export const resolutionOption = () =>
  new Option('--resolution <r>', 'MONTHLY_ADJUSTED (salary periods, the sandbox default) or MONTHLY').choices([
    'MONTHLY',
    'MONTHLY_ADJUSTED',
  ]);

export function isoDate(v: string, flag: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m || new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).getUTCDate() !== Number(m[3]))
    throw new UsageError(`${flag} must be a date YYYY-MM-DD, got "${v}"`);
  return v;
}

/**
 * --resolution is the sandbox's: the reference takes only the dates and answers the user's own
 * resolution. Periods of another resolution than asked are shown as they are, with a warning
 * (their resolution column says it too).
 */
export function warnOtherResolution(ctx: Context, asked: string | undefined, periods: Period[]): void {
  if (!asked) return;
  const other = periods.find((p) => p.resolution !== asked);
  if (!other) return;
  ctx.warn(
    `asked for ${asked} periods, the service answered ${String(other.resolution)} (the user's own resolution: the service takes no --resolution, the sandbox does)`,
  );
}
