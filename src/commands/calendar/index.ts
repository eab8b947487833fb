import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { calendarPeriod, calendarPeriods, type Period } from '../../api/calendar.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples } from '../util.js';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const columns = [
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
const resolutionOption = () =>
  new Option('--resolution <r>', 'MONTHLY_ADJUSTED (salary periods, the sandbox default) or MONTHLY').choices([
    'MONTHLY',
    'MONTHLY_ADJUSTED',
  ]);

function isoDate(v: string, flag: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m || new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).getUTCDate() !== Number(m[3]))
    throw new UsageError(`${flag} must be a date YYYY-MM-DD, got "${v}"`);
  return v;
}

export function registerCalendar(program: Command, ctx: Context): void {
  const calendar = program.command('calendar').description('monthly and salary-adjusted calendar periods');
  const periods = calendar
    .command('periods')
    .description(
      'the periods from the one holding --from to the one holding --to, at most 10 years (GET /api/v1/calendar/periods)',
    )
    .requiredOption('--from <date>', 'a date inside the first period, YYYY-MM-DD')
    .requiredOption('--to <date>', 'a date inside the last period, YYYY-MM-DD')
    .addOption(resolutionOption())
    .action(async (o: { from: string; to: string; resolution?: string }) => {
      const from = isoDate(o.from, '--from');
      const to = isoDate(o.to, '--to');
      if (from > to) throw new UsageError('--from is after --to');
      await render(ctx, await calendarPeriods(await ctx.api(), from, to, o.resolution), { columns });
    });
  examples(periods, [
    'bankctl calendar periods --from 2026-01-01 --to 2026-12-31',
    'bankctl calendar periods --from 2026-01-01 --to 2026-03-31 --resolution MONTHLY -o json',
  ]);

  const period = calendar
    .command('period')
    .argument('<period>', 'YYYY (twelve periods), YYYY-MM or YYYY-MM-DD (the period holding that day)')
    .description('the details of one period (GET /api/v1/calendar/periods/{period})')
    .addOption(resolutionOption())
    .action(async (p: string, o: { resolution?: string }) => {
      if (!/^\d{4}(-\d{2}(-\d{2})?)?$/.test(p))
        throw new UsageError(`the period must be YYYY, YYYY-MM or YYYY-MM-DD, got "${p}"`);
      await render(ctx, await calendarPeriod(await ctx.api(), p, o.resolution), { columns });
    });
  examples(period, [
    'bankctl calendar period 2026-12',
    'bankctl calendar period 2026-05-24   # which salary period holds this day?',
    'bankctl calendar period 2026',
  ]);
}
