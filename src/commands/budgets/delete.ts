// `budgets delete ID`: delete a budget.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { deleteBudget } from '../../api/budgets.js';
import { examples, type Run } from '../util.js';
import { confirmDestructive, where } from '../../prompts/confirm.js';

export interface DeleteOptions {
  id: string;
}

export function newCmdDelete(parent: Command, ctx: Context, run: Run<DeleteOptions> = deleteRun): Command {
  const cmd = parent
    .command('delete')
    .argument('<id>', 'budget id')
    .description('delete a budget (DELETE /api/v1/budgets/{id})')
    .action(async (id: string) => {
      await confirmDestructive(ctx, {
        action: `delete budget ${id}`,
        details: [`budget: ${id}`, ...(await where(ctx))],
      });
      await run(ctx, { id });
    });
  return examples(cmd, [
    'bankctl budgets delete 630ff47c3aa841e9a11e7317c8683ca6',
    'bankctl budgets delete 630ff47c3aa841e9a11e7317c8683ca6 --yes   # in a script: no terminal to confirm on',
  ]);
}

export async function deleteRun(ctx: Context, o: DeleteOptions): Promise<void> {
  await deleteBudget(await ctx.api(), o.id);
  ctx.notice(`deleted budget ${o.id}`);
}
