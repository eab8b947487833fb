import type { Command } from 'commander';
import type { Context } from '../../context.js';
import {
  budgetDetails,
  budgetTransactions,
  recommendedBudgets,
  type Budget,
  type BudgetPeriod,
} from '../../api/budgets.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples } from '../util.js';
import { dateFlag, denominatedDecimal, denominatedText, filterText, isoDay } from './amounts.js';
import { progress } from '../statistics/bars.js';

export function registerBudgetsDetails(parent: Command, ctx: Context): void {
  const details = parent
    .command('details')
    .argument('<id>', 'budget id')
    .description(
      'a budget and its periods from the one holding --start to the one holding --end (GET /api/v1/budgets/{id}/details)',
    )
    .option('--start <date>', 'a date inside the first period, YYYY-MM-DD or epoch ms (default: now)')
    .option('--end <date>', 'a date inside the last period (default: now)')
    .action(async (id: string, o: { start?: string; end?: string }) => {
      const range = {
        start: o.start ? dateFlag(o.start, '--start') : undefined,
        end: o.end ? dateFlag(o.end, '--end') : undefined,
      };
      if (range.start !== undefined && range.end !== undefined && range.start > range.end)
        throw new UsageError('--start is after --end');
      const d = await budgetDetails(await ctx.api(), id, range);
      if ((await ctx.outputFormat()) !== 'table') return render(ctx, d);
      const target = d.budgetSpecification.amount;
      await render(ctx, d.budgetPeriods, {
        columns: [
          {
            header: 'period',
            path: '',
            format: (_v, p) => `${isoDay((p as BudgetPeriod).start)} to ${isoDay((p as BudgetPeriod).end)}`,
          },
          { header: 'spent', path: 'spentAmount', format: (v) => denominatedText(v as Budget['amount']) },
          { header: 'target', path: '', format: () => denominatedText(target) },
          {
            header: 'progress',
            path: 'spentAmount',
            format: (v) => progress(denominatedDecimal(v as Budget['amount']), denominatedDecimal(target)),
          },
        ],
      });
      ctx.notice(
        `${d.budgetSpecification.name} (${filterText(d.budgetSpecification.filter)}): total ${denominatedText(d.totalSpentAmount)}, average ${denominatedText(d.averageSpentAmount)} per period`,
      );
    });
  examples(details, [
    'bankctl budgets details $ID --start 2026-01-01 --end 2026-06-30',
    'bankctl budgets details $ID -o json | jq .totalSpentAmount',
  ]);

  const txs = parent
    .command('transactions')
    .argument('<id>', 'budget id')
    .description("the budget's transactions between two dates, inclusive (GET /api/v1/budgets/{id}/transactions)")
    .requiredOption('--start <date>', 'from, YYYY-MM-DD or epoch ms')
    .requiredOption('--end <date>', 'to (inclusive), YYYY-MM-DD or epoch ms')
    .action(async (id: string, o: { start: string; end: string }) => {
      const start = dateFlag(o.start, '--start');
      const end = dateFlag(o.end, '--end', true);
      if (start > end) throw new UsageError('--start is after --end');
      const list = await budgetTransactions(await ctx.api(), id, { start, end });
      await render(ctx, list, {
        columns: [
          { header: 'date', path: 'date', format: (v) => isoDay(v as number) },
          { header: 'description', path: 'description' },
          { header: 'amount', path: 'amount', format: (v) => denominatedText(v as Budget['amount']) },
          { header: 'category', path: 'categoryCode' },
          { header: 'account', path: 'accountId' },
          { header: 'id', path: 'id' },
        ],
      });
    });
  examples(txs, ['bankctl budgets transactions $ID --start 2026-10-01 --end 2026-10-31']);

  const rec = parent
    .command('recommended')
    .description('budgets recommended from your spending patterns (GET /api/v1/budgets/recommended)')
    .action(async () => {
      const list = await recommendedBudgets(await ctx.api());
      await render(ctx, list, {
        columns: [
          { header: 'name', path: 'name' },
          { header: 'amount', path: 'amount', format: (v) => denominatedText(v as Budget['amount']) },
          { header: 'per', path: 'recurringPeriodicity.periodUnit' },
          {
            header: 'average spent',
            path: 'averageSpentAmount',
            format: (v) => denominatedText(v as Budget['amount']),
          },
          { header: 'filter', path: 'filter', format: (v) => filterText(v as Budget['filter']) },
        ],
      });
    });
  examples(rec, ['bankctl budgets recommended --user $USER', 'bankctl budgets recommended -o json | jq ".[0]"']);
}
