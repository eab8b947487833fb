import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { budgetSummaries, listBudgets, type Budget } from '../../api/budgets.js';
import { render } from '../../output/render.js';
import { examples } from '../util.js';
import { denominatedDecimal, denominatedText, filterText, isoDay } from './amounts.js';
import { progress } from '../statistics/bars.js';

export function periodicityText(b: Budget): string {
  if (b.periodicityType === 'RECURRING')
    return `every ${String(b.recurringPeriodicity?.periodUnit ?? '?').toLowerCase()}`;
  return `${isoDay(b.oneOffPeriodicity?.start)} to ${isoDay(b.oneOffPeriodicity?.end)}`;
}

export function registerBudgetsList(parent: Command, ctx: Context): void {
  const list = parent
    .command('list')
    .description('list budgets (GET /api/v1/budgets)')
    .option('--include-archived', 'archived budgets too')
    .action(async (o: { includeArchived?: boolean }) => {
      const budgets = await listBudgets(await ctx.api(), Boolean(o.includeArchived));
      await render(ctx, budgets, {
        columns: [
          { header: 'id', path: 'id' },
          { header: 'name', path: 'name' },
          { header: 'target', path: 'amount', format: (v) => denominatedText(v as Budget['amount']) },
          { header: 'period', path: '', format: (_v, b) => periodicityText(b as Budget) },
          { header: 'filter', path: 'filter', format: (v) => filterText(v as Budget['filter']) },
          { header: 'archived', path: 'archived' },
        ],
      });
    });
  examples(list, ['bankctl budgets list --user $USER', 'bankctl budgets list --include-archived -o json']);

  const summaries = parent
    .command('summaries')
    .description('budgets with their current period: spent against target (GET /api/v1/budgets/summaries)')
    .option('--include-archived', 'archived budgets too')
    .action(async (o: { includeArchived?: boolean }) => {
      const rows = await budgetSummaries(await ctx.api(), Boolean(o.includeArchived));
      await render(ctx, rows, {
        columns: [
          { header: 'id', path: 'budgetSpecification.id' },
          { header: 'name', path: 'budgetSpecification.name' },
          {
            header: 'period',
            path: 'budgetPeriods',
            format: (v) => `${isoDay((v as { start?: number })?.start)} to ${isoDay((v as { end?: number })?.end)}`,
          },
          { header: 'spent', path: 'budgetPeriods.spentAmount', format: (v) => denominatedText(v as Budget['amount']) },
          {
            header: 'target',
            path: 'budgetSpecification.amount',
            format: (v) => denominatedText(v as Budget['amount']),
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
    });
  examples(summaries, [
    'bankctl budgets summaries --user $USER',
    'bankctl budgets summaries -o json | jq ".[].budgetPeriods.spentAmount"',
  ]);
}

/** One budget: as returned for json/ndjson/csv, as readable rows for a table. */
export async function showBudget(ctx: Context, b: Budget): Promise<void> {
  if ((await ctx.outputFormat()) !== 'table') return render(ctx, b);
  await render(ctx, {
    id: b.id,
    name: b.name,
    target: denominatedText(b.amount),
    period: periodicityText(b),
    filter: filterText(b.filter),
    archived: b.archived,
  });
}
