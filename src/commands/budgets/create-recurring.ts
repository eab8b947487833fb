// `budgets create-recurring`: a budget that repeats every week, month or year.
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { createRecurringBudget, type CreateBudgetRequest } from '../../api/budgets.js';
import { examples, type Run } from '../util.js';
import { amountFlag, filterFlags } from './amounts.js';
import { addFilterOptions, BUDGET_VIEW, withData, type BudgetFlags } from './shared.js';
import { renderOne } from '../accounts/v2-cells.js';

export interface CreateRecurringOptions {
  request: CreateBudgetRequest;
}

export function newCmdCreateRecurring(
  parent: Command,
  ctx: Context,
  run: Run<CreateRecurringOptions> = createRecurringRun,
): Command {
  const cmd = addFilterOptions(
    parent
      .command('create-recurring')
      .description('create a budget that repeats every week, month or year (POST /api/v1/budgets/recurring)')
      .requiredOption('--name <name>', 'budget name')
      .requiredOption('--amount <decimal>', 'target amount per period, exact')
      .requiredOption('--currency <code>', "currency, the user's own (e.g. SEK)")
      .addOption(new Option('--period <unit>', 'period unit').choices(['WEEK', 'MONTH', 'YEAR']).default('MONTH')),
  ).action(async (o: BudgetFlags) => {
    const request: CreateBudgetRequest = {
      name: o.name!,
      amount: amountFlag(o.amount!, o.currency!),
      filter: filterFlags(o) ?? {},
      recurringPeriodicity: { periodUnit: o.period! },
    };
    await run(ctx, { request: withData(request, o.data) });
  });
  return examples(cmd, [
    'bankctl budgets create-recurring --name Coffee --amount 400 --currency SEK --period WEEK --category expenses:food.coffee',
    'bankctl budgets create-recurring --name Food --amount 6000 --currency SEK --category expenses:food -o json | jq -r .id',
  ]);
}

export async function createRecurringRun(ctx: Context, o: CreateRecurringOptions): Promise<void> {
  await renderOne(ctx, await createRecurringBudget(await ctx.api(), o.request), BUDGET_VIEW);
}
