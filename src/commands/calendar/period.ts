// `calendar period P`: one period (a year gives its twelve).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { calendarPeriod } from '../../api/calendar.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { PERIOD_COLUMNS, resolutionOption, warnOtherResolution } from './shared.js';

export interface PeriodOptions {
  period: string;
  resolution?: string;
}

export function newCmdPeriod(parent: Command, ctx: Context, run: Run<PeriodOptions> = periodRun): Command {
  const cmd = parent
    .command('period')
    .argument('<period>', 'YYYY (twelve periods), YYYY-MM or YYYY-MM-DD (the period holding that day)')
    .description('the details of one period (GET /api/v1/calendar/periods/{period})')
    .addOption(resolutionOption())
    .action(async (period: string, o: { resolution?: string }) => {
      if (!/^\d{4}(-\d{2}(-\d{2})?)?$/.test(period))
        throw new UsageError(`the period must be YYYY, YYYY-MM or YYYY-MM-DD, got "${period}"`);
      await run(ctx, { period, resolution: o.resolution });
    });
  return examples(cmd, [
    'bankctl calendar period 2026-12',
    'bankctl calendar period 2026-05-24   # which salary period holds this day?',
    'bankctl calendar period 2026',
  ]);
}

export async function periodRun(ctx: Context, o: PeriodOptions): Promise<void> {
  const periods = await calendarPeriod(await ctx.api(), o.period, o.resolution);
  warnOtherResolution(ctx, o.resolution, periods);
  await render(ctx, periods, { columns: PERIOD_COLUMNS });
}
