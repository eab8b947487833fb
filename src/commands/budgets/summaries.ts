// `budgets summaries`: each budget with its current period, spent against target.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { budgetSummaries, type Budget } from '../../api/budgets.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { denominatedDecimal, denominatedText, isoDay } from './amounts.js';
import { progress } from '../statistics/bars.js';

export interface SummariesOptions {
  includeArchived: boolean;
}

export function newCmdSummaries(parent: Command, ctx: Context, run: Run<SummariesOptions> = summariesRun): Command {
  const cmd = parent
    .command('summaries')
    .description('budgets with their current period: spent against target (GET /api/v1/budgets/summaries)')
    .option('--include-archived', 'archived budgets too')
    .action(async (o: { includeArchived?: boolean }) => run(ctx, { includeArchived: Boolean(o.includeArchived) }));
  return examples(cmd, [
    'bankctl budgets summaries --user $USER_ID',
    'bankctl budgets summaries -o json | jq ".[].budgetPeriods.spentAmount"',
  ]);
}

export async function summariesRun(ctx: Context, o: SummariesOptions): Promise<void> {
  const rows = await budgetSummaries(await ctx.api(), o.includeArchived);
  await render(ctx, rows, {
    columns: [
      { header: 'id', path: 'budgetSpecification.id' },
      { header: 'name', path: 'budgetSpecification.name' },
      {
        header: 'period',
        path: 'budgetPeriods',
        format: (v) => `${isoDay((v as { start?: number })?.start)} to ${isoDay((v as { end?: number })?.end)}`,
      },
      {
        header: 'spent',
        path: 'budgetPeriods.spentAmount',
        format: (v) => denominatedText(v as Budget['amount']),
        money: true,
      },
      {
        header: 'target',
        path: 'budgetSpecification.amount',
        format: (v) => denominatedText(v as Budget['amount']),
        money: true,
      },
      {
        header: 'progress',
        path: '',
        format: (_v, r) => {
          const row = r as { budgetSpecification: Budget; budgetPeriods?: { spentAmount?: Budget['amount'] } };
          return progress(
            denominatedDecimal(row.budgetPeriods?.spentAmount),
            denominatedDecimal(row.budgetSpecification.amount),
          );
        },
      },
    ],
  });
}
