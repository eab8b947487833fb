// `budgets archive ID`: archive a budget (then listed only with --include-archived).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { archiveBudget } from '../../api/budgets.js';
import { examples, type Run } from '../util.js';
import { BUDGET_VIEW } from './shared.js';
import { renderOne } from '../accounts/v2-cells.js';

export interface ArchiveOptions {
  id: string;
}

export function newCmdArchive(parent: Command, ctx: Context, run: Run<ArchiveOptions> = archiveRun): Command {
  const cmd = parent
    .command('archive')
    .argument('<id>', 'budget id')
    .description('archive a budget; it is then listed only with --include-archived (PUT /api/v1/budgets/{id}/archive)')
    .action(async (id: string) => run(ctx, { id }));
  return examples(cmd, ['bankctl budgets archive 630ff47c3aa841e9a11e7317c8683ca6']);
}

export async function archiveRun(ctx: Context, o: ArchiveOptions): Promise<void> {
  await renderOne(ctx, await archiveBudget(await ctx.api(), o.id), BUDGET_VIEW);
}
