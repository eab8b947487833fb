// `budgets list`: the user's budgets, archived ones with --include-archived.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listBudgets } from '../../api/budgets.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { BUDGET_VIEW } from './shared.js';

export interface ListOptions {
  includeArchived: boolean;
}

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description('list budgets (GET /api/v1/budgets)')
    .option('--include-archived', 'archived budgets too')
    .action(async (o: { includeArchived?: boolean }) => run(ctx, { includeArchived: Boolean(o.includeArchived) }));
  return examples(cmd, ['bankctl budgets list --user $USER_ID', 'bankctl budgets list --include-archived -o json']);
}

export async function listRun(ctx: Context, o: ListOptions): Promise<void> {
  const budgets = await listBudgets(await ctx.api(), o.includeArchived);
  await render(ctx, budgets, BUDGET_VIEW);
}
