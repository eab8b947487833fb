// `budgets create-one-off`: a budget for a date interval.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { createOneOffBudget, type CreateBudgetRequest } from '../../api/budgets.js';
import { UsageError } from '../../errors.js';
import { examples, type Run } from '../util.js';
import { amountFlag, dateFlag, filterFlags } from './amounts.js';
import { addFilterOptions, BUDGET_VIEW, withData, type BudgetFlags } from './shared.js';
import { renderOne } from '../accounts/v2-cells.js';

export interface CreateOneOffOptions {
  request: CreateBudgetRequest;
}

export function newCmdCreateOneOff(
  parent: Command,
  ctx: Context,
  run: Run<CreateOneOffOptions> = createOneOffRun,
): Command {
  const cmd = addFilterOptions(
    parent
      .command('create-one-off')
      .description('create a budget for a date interval (POST /api/v1/budgets/one-off)')
      .requiredOption('--name <name>', 'budget name')
      .requiredOption('--amount <decimal>', 'target amount, exact, e.g. 5000 or 1499.50')
      .requiredOption('--currency <code>', "currency, the user's own (e.g. SEK)")
      .requiredOption('--start <date>', 'first day, YYYY-MM-DD (UTC) or epoch ms')
      .requiredOption('--end <date>', 'last day, YYYY-MM-DD (inclusive) or epoch ms'),
  ).action(async (o: BudgetFlags) => {
    const start = dateFlag(o.start!, '--start');
    const end = dateFlag(o.end!, '--end', true);
    if (start > end) throw new UsageError('--start is after --end');
    const request: CreateBudgetRequest = {
      name: o.name!,
      amount: amountFlag(o.amount!, o.currency!),
      filter: filterFlags(o) ?? {},
      oneOffPeriodicity: { start, end },
    };
    await run(ctx, { request: withData(request, o.data) });
  });
  return examples(cmd, [
    'bankctl budgets create-one-off --name "Summer trip" --amount 12000 --currency SEK --start 2026-06-01 --end 2026-08-31 --category expenses:travel',
    'bankctl budgets create-one-off --name Party --amount 2500.50 --currency SEK --start 2026-12-01 --end 2026-12-31 --tag party',
  ]);
}

export async function createOneOffRun(ctx: Context, o: CreateOneOffOptions): Promise<void> {
  await renderOne(ctx, await createOneOffBudget(await ctx.api(), o.request), BUDGET_VIEW);
}
