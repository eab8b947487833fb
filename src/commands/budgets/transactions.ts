// `budgets transactions ID --start D --end D`: the transactions a budget counts.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { budgetTransactions, type Budget } from '../../api/budgets.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { BUDGET_TRANSACTION_FIELDS } from '../../contract/item-fields.js';
import { examples, type Run } from '../util.js';
import { dateFlag, denominatedText, isoDay } from './amounts.js';

export interface TransactionsOptions {
  id: string;
  start: number;
  end: number;
}

export function newCmdTransactions(
  parent: Command,
  ctx: Context,
  run: Run<TransactionsOptions> = transactionsRun,
): Command {
  const cmd = parent
    .command('transactions')
    .argument('<id>', 'budget id')
    .description("the budget's transactions between two dates, inclusive (GET /api/v1/budgets/{id}/transactions)")
    .requiredOption('--start <date>', 'from, YYYY-MM-DD or epoch ms')
    .requiredOption('--end <date>', 'to (inclusive), YYYY-MM-DD or epoch ms')
    .action(async (id: string, o: { start: string; end: string }) => {
      const start = dateFlag(o.start, '--start');
      const end = dateFlag(o.end, '--end', true);
      if (start > end) throw new UsageError('--start is after --end');
      await run(ctx, { id, start, end });
    });
  return examples(cmd, ['bankctl budgets transactions $ID --start 2026-10-01 --end 2026-10-31']);
}

export async function transactionsRun(ctx: Context, o: TransactionsOptions): Promise<void> {
  const list = await budgetTransactions(await ctx.api(), o.id, { start: o.start, end: o.end });
  await render(ctx, list, {
    columns: [
      { header: 'date', path: 'date', format: (v) => isoDay(v as number) },
      { header: 'description', path: 'description' },
      { header: 'amount', path: 'amount', format: (v) => denominatedText(v as Budget['amount']), money: true },
      { header: 'category', path: 'categoryCode' },
      // the reference's BudgetTransaction says whether it is pending; the older Swagger's does not
      { header: 'pending', path: 'pending' },
      { header: 'account', path: 'accountId' },
      { header: 'id', path: 'id' },
    ],
    declared: BUDGET_TRANSACTION_FIELDS,
  });
}
