// `calendar periods --from D --to D`: the periods between two dates.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { calendarPeriods } from '../../api/calendar.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { isoDate, PERIOD_COLUMNS, resolutionOption, warnOtherResolution } from './shared.js';

export interface PeriodsOptions {
  from: string;
  to: string;
  resolution?: string;
}

export function newCmdPeriods(parent: Command, ctx: Context, run: Run<PeriodsOptions> = periodsRun): Command {
  const cmd = parent
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
      if (from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
      await run(ctx, { from, to, resolution: o.resolution });
    });
  return examples(cmd, [
    'bankctl calendar periods --from 2026-01-01 --to 2026-12-31',
    'bankctl calendar periods --from 2026-01-01 --to 2026-03-31 --resolution MONTHLY -o json',
  ]);
}

export async function periodsRun(ctx: Context, o: PeriodsOptions): Promise<void> {
  const periods = await calendarPeriods(await ctx.api(), o.from, o.to, o.resolution);
  warnOtherResolution(ctx, o.resolution, periods);
  await render(ctx, periods, { columns: PERIOD_COLUMNS });
}
