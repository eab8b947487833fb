import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { archiveBudget, deleteBudget, listBudgets, updateBudget, type CreateBudgetRequest } from '../../api/budgets.js';
import { NotFoundError, UsageError } from '../../errors.js';
import { showBudget } from './list.js';
import { examples } from '../util.js';
import { amountFlag, dateFlag, filterFlags } from './amounts.js';
import { addFilterOptions, withData, type BudgetFlags } from './create.js';

export function registerBudgetsUpdate(parent: Command, ctx: Context): void {
  const update = addFilterOptions(
    parent
      .command('update')
      .argument('<id>', 'budget id')
      .description('change a budget; what you do not give is kept (PUT /api/v1/budgets/{id})')
      .option('--name <name>', 'new name')
      .option('--amount <decimal>', 'new target amount, exact')
      .option('--currency <code>', "currency of --amount (default: the budget's)")
      .option('--start <date>', 'one-off budgets: new first day')
      .option('--end <date>', 'one-off budgets: new last day (inclusive)')
      .option('--period <unit>', 'recurring budgets: WEEK, MONTH or YEAR'),
  ).action(async (id: string, o: BudgetFlags) => {
    const api = await ctx.api();
    // UpdateBudgetRequest needs name, amount and filter: start from the budget as it is
    const current = (await listBudgets(api, true)).find((b) => b.id === id);
    if (!current)
      throw new NotFoundError(`budget ${id} not found`, { hint: 'see `bankctl budgets list --include-archived`' });
    const req: CreateBudgetRequest = {
      name: o.name ?? current.name,
      amount: o.amount !== undefined ? amountFlag(o.amount, o.currency ?? current.amount.currencyCode) : current.amount,
      filter: filterFlags(o) ?? current.filter ?? {},
    };
    if (current.periodicityType === 'ONE_OFF') {
      if (o.period) throw new UsageError('--period applies to recurring budgets; this one is one-off');
      const start = o.start ? dateFlag(o.start, '--start') : current.oneOffPeriodicity!.start;
      const end = o.end ? dateFlag(o.end, '--end', true) : current.oneOffPeriodicity!.end;
      if (start > end) throw new UsageError('--start is after --end');
      req.oneOffPeriodicity = { start, end };
    } else {
      if (o.start || o.end) throw new UsageError('--start and --end apply to one-off budgets; this one is recurring');
      const unit = (o.period ?? current.recurringPeriodicity?.periodUnit ?? 'MONTH').toUpperCase();
      if (!['WEEK', 'MONTH', 'YEAR'].includes(unit))
        throw new UsageError(`--period must be WEEK, MONTH or YEAR, got "${o.period}"`);
      req.recurringPeriodicity = { periodUnit: unit };
    }
    await showBudget(ctx, await updateBudget(api, id, withData(req, o.data)));
  });
  examples(update, [
    'bankctl budgets update 630ff47c3aa841e9a11e7317c8683ca6 --amount 450.00',
    'bankctl budgets update $ID --name "Coffee and snacks" --category expenses:food.coffee',
  ]);

  const del = parent
    .command('delete')
    .argument('<id>', 'budget id')
    .description('delete a budget (DELETE /api/v1/budgets/{id})')
    .action(async (id: string) => {
      await deleteBudget(await ctx.api(), id);
      ctx.notice(`deleted budget ${id}`);
    });
  examples(del, ['bankctl budgets delete 630ff47c3aa841e9a11e7317c8683ca6']);

  const archive = parent
    .command('archive')
    .argument('<id>', 'budget id')
    .description('archive a budget; it is then listed only with --include-archived (PUT /api/v1/budgets/{id}/archive)')
    .action(async (id: string) => {
      await showBudget(ctx, await archiveBudget(await ctx.api(), id));
    });
  examples(archive, ['bankctl budgets archive 630ff47c3aa841e9a11e7317c8683ca6']);
}
