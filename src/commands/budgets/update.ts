// `budgets update ID`: change a budget; what is not given is kept (the request needs all of it).
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import type { Context } from '../../context.js';
import { listBudgets, updateBudget, type Budget, type CreateBudgetRequest } from '../../api/budgets.js';
import { NotFoundError, UsageError } from '../../errors.js';
import { examples, type Run } from '../util.js';
import { amountFlag, dateFlag, filterFlags } from './amounts.js';
import { addFilterOptions, BUDGET_VIEW, withData, type BudgetFlags } from './shared.js';
import { renderOne } from '../accounts/v2-cells.js';

export interface UpdateOptions {
  id: string;
  /** The flags as given: what they mean depends on the budget as it is, read first. */
  flags: BudgetFlags;
}

export function newCmdUpdate(parent: Command, ctx: Context, run: Run<UpdateOptions> = updateRun): Command {
  const cmd = addFilterOptions(
    parent
      .command('update')
      .argument('<id>', 'budget id')
      .description(
        'change a budget; what you do not give is kept, and a filter flag replaces only its part of the filter (PUT /api/v1/budgets/{id})',
      )
      .option('--name <name>', 'new name')
      .option('--amount <decimal>', 'new target amount, exact')
      .option('--currency <code>', "currency of --amount (default: the budget's)")
      .option('--start <date>', 'one-off budgets: new first day')
      .option('--end <date>', 'one-off budgets: new last day (inclusive)')
      .option('--period <unit>', 'recurring budgets: WEEK, MONTH or YEAR'),
  ).action(async (id: string, o: BudgetFlags) => run(ctx, { id, flags: o }));
  completeOption(cmd, '--period', () => ['WEEK', 'MONTH', 'YEAR']);
  return examples(cmd, [
    'bankctl budgets update 630ff47c3aa841e9a11e7317c8683ca6 --amount 450.00',
    'bankctl budgets update $ID --name "Coffee and snacks" --category expenses:food.coffee',
    'bankctl budgets update $ID --data \'{"filter":{}}\'   # clear the filter: every expense counts',
  ]);
}

/** The UpdateBudgetRequest: the flags over the budget as it is. */
function updateRequest(current: Budget, o: BudgetFlags): CreateBudgetRequest {
  const req: CreateBudgetRequest = {
    name: o.name ?? current.name,
    amount: o.amount !== undefined ? amountFlag(o.amount, o.currency ?? current.amount.currencyCode) : current.amount,
    // each filter property given replaces the budget's; the others are kept ("what you do not give is kept")
    filter: { ...(current.filter ?? {}), ...filterFlags(o) },
  };
  if (current.periodicityType === 'ONE_OFF') {
    if (o.period) throw new UsageError('--period applies to recurring budgets; this one is one-off');
    const start = o.start !== undefined ? dateFlag(o.start, '--start') : current.oneOffPeriodicity!.start;
    const end = o.end !== undefined ? dateFlag(o.end, '--end', true) : current.oneOffPeriodicity!.end;
    if (start > end) throw new UsageError('--start is after --end');
    req.oneOffPeriodicity = { start, end };
  } else {
    if (o.start !== undefined || o.end !== undefined)
      throw new UsageError('--start and --end apply to one-off budgets; this one is recurring');
    const unit = (o.period ?? current.recurringPeriodicity?.periodUnit ?? 'MONTH').toUpperCase();
    if (!['WEEK', 'MONTH', 'YEAR'].includes(unit))
      throw new UsageError(`--period must be WEEK, MONTH or YEAR, got "${o.period}"`);
    req.recurringPeriodicity = { periodUnit: unit };
  }
  return withData(req, o.data);
}

export async function updateRun(ctx: Context, o: UpdateOptions): Promise<void> {
  const api = await ctx.api();
  const current = (await listBudgets(api, true)).find((b) => b.id === o.id);
  if (!current)
    throw new NotFoundError(`budget ${o.id} not found`, { hint: 'see `bankctl budgets list --include-archived`' });
  await renderOne(ctx, await updateBudget(api, o.id, updateRequest(current, o.flags)), BUDGET_VIEW);
}
