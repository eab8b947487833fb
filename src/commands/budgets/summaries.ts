// `budgets summaries`: each budget with its current period, spent against target.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { budgetSummaries, currentPeriod, type BudgetPeriod, type BudgetSummary } from '../../api/budgets.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { BUDGET_SUMMARY_FIELDS } from '../../contract/item-fields.js';
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
    'bankctl budgets summaries -o json | jq ".[].budgetPeriod.spentAmount"',
  ]);
}

export async function summariesRun(ctx: Context, o: SummariesOptions): Promise<void> {
  const rows = await budgetSummaries(await ctx.api(), o.includeArchived);
  await render(ctx, rows, {
    columns: [
      { header: 'id', path: 'budgetSpecification.id' },
      { header: 'name', path: 'budgetSpecification.name' },
      // the current period: `budgetPeriod` (the vendor reference's) or `budgetPeriods` (the Swagger's)
      {
        header: 'period',
        path: 'budgetPeriod',
        alt: 'budgetPeriods',
        format: (v) => {
          const p = v as BudgetPeriod | undefined;
          return p ? `${isoDay(p.start)} to ${isoDay(p.end)}` : '';
        },
      },
      {
        header: 'spent',
        path: 'budgetPeriod.spentAmount',
        alt: 'budgetPeriods.spentAmount',
        format: (v) => denominatedText(v as BudgetPeriod['spentAmount'] | undefined),
        money: true,
      },
      {
        header: 'target',
        path: 'budgetSpecification.amount',
        format: (_v, r) => denominatedText((r as BudgetSummary).budgetSpecification?.amount),
        money: true,
      },
      {
        header: 'progress',
        path: '',
        format: (_v, r) => {
          const row = r as BudgetSummary;
          return progress(
            denominatedDecimal(currentPeriod(row)?.spentAmount),
            denominatedDecimal(row.budgetSpecification?.amount),
          );
        },
      },
    ],
    declared: BUDGET_SUMMARY_FIELDS,
  });
}
