// `balance-refresh status ID`: where a balance refresh stands.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getBalanceRefresh } from '../../api/accounts.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';

export interface StatusOptions {
  id: string;
}

export function newCmdStatus(parent: Command, ctx: Context, run: Run<StatusOptions> = statusRun): Command {
  const cmd = parent
    .command('status')
    .argument('<refreshId>', 'the balanceRefreshId that create printed')
    .description('the status of a balance refresh (GET /api/v1/balance-refresh/{id}, balance-refresh:readonly)')
    .action(async (id: string) => run(ctx, { id }));
  return examples(cmd, ['bankctl balance-refresh status 5f6d0c2a9b8e4f7a8c1d2e3f4a5b6c7d --user $USER_ID']);
}

export async function statusRun(ctx: Context, o: StatusOptions): Promise<void> {
  await render(ctx, await getBalanceRefresh(await ctx.api(), o.id));
}
