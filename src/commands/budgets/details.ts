// `budgets details ID`: a budget and its periods over a date range, spent against target.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { budgetDetails, type Budget, type BudgetPeriod } from '../../api/budgets.js';
import { UsageError } from '../../errors.js';
import { render, type Column } from '../../output/render.js';
import { BUDGET_PERIOD_FIELDS } from '../../contract/item-fields.js';
import { examples, type Run } from '../util.js';
import { dateFlag, denominatedDecimal, denominatedText, filterText, isoDay } from './amounts.js';
import { progress } from '../statistics/bars.js';

export interface DetailsOptions {
  id: string;
  start?: number;
  end?: number;
}

export function newCmdDetails(parent: Command, ctx: Context, run: Run<DetailsOptions> = detailsRun): Command {
  const cmd = parent
    .command('details')
    .argument('<id>', 'budget id')
    .description(
      'a budget and its periods from the one holding --start to the one holding --end (GET /api/v1/budgets/{id}/details)',
    )
    .option('--start <date>', 'a date inside the first period, YYYY-MM-DD or epoch ms (default: now)')
    .option('--end <date>', 'a date inside the last period (default: now)')
    .action(async (id: string, o: { start?: string; end?: string }) => {
      // given empty (a variable that came out empty) is exit 2, not "now": one period with exit 0
      const start = o.start !== undefined ? dateFlag(o.start, '--start') : undefined;
      const end = o.end !== undefined ? dateFlag(o.end, '--end') : undefined;
      if (start !== undefined && end !== undefined && start > end) throw new UsageError('--start is after --end');
      await run(ctx, { id, start, end });
    });
  return examples(cmd, [
    'bankctl budgets details $ID --start 2026-01-01 --end 2026-06-30',
    'bankctl budgets details $ID -o json | jq .totalSpentAmount',
  ]);
}

export async function detailsRun(ctx: Context, o: DetailsOptions): Promise<void> {
  const d = await budgetDetails(await ctx.api(), o.id, { start: o.start, end: o.end });
  const format = await ctx.outputFormat();
  if (format === 'json' || format === 'ndjson') return render(ctx, d);
  const target = d.budgetSpecification?.amount;
  const spent: Column = {
    header: 'spent',
    path: 'spentAmount',
    format: (v) => denominatedText(v as Budget['amount']),
    money: true,
  };
  const goal: Column = { header: 'target', path: '', format: () => denominatedText(target), money: true };
  const progressOf = (v: unknown) =>
    target ? progress(denominatedDecimal(v as Budget['amount']), denominatedDecimal(target)) : '';
  const period = (p: unknown) => p as BudgetPeriod;
  // csv is for a spreadsheet: the two dates apart and the amounts alone (it works out the rest);
  // a table reads one period a line, with its progress drawn
  const columns: Column[] =
    format === 'csv'
      ? [
          { header: 'start', path: '', format: (_v, p) => isoDay(period(p).start) },
          { header: 'end', path: '', format: (_v, p) => isoDay(period(p).end) },
          spent,
          goal,
        ]
      : [
          { header: 'period', path: '', format: (_v, p) => `${isoDay(period(p).start)} to ${isoDay(period(p).end)}` },
          spent,
          goal,
          {
            header: 'progress',
            path: 'spentAmount',
            format: progressOf,
          },
        ];
  await render(ctx, d.budgetPeriods ?? [], { columns, declared: BUDGET_PERIOD_FIELDS });
  const spec = d.budgetSpecification;
  const which = spec ? `${spec.name} (${filterText(spec.filter)})` : `budget ${o.id}`;
  ctx.notice(
    `${which}: total ${denominatedText(d.totalSpentAmount)}, average ${denominatedText(d.averageSpentAmount)} per period`,
  );
}
