import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { createBalanceRefresh, getBalanceRefresh } from '../../api/accounts.js';
import { FlowFailedError, UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples, parseIntArg } from '../util.js';

export function registerBalanceRefresh(program: Command, ctx: Context): void {
  const br = program
    .command('balance-refresh')
    .description("refresh an account's balance at its bank (5 per account per 2 hours)");

  const create = br
    .command('create')
    .description('start a balance refresh (POST /api/v1/balance-refresh, balance-refresh)')
    .requiredOption('--account <id>', 'the account to refresh')
    .option('--wait', 'poll the status until FINISHED, then print it')
    .option('--wait-timeout <seconds>', 'give up waiting after this long (default 60)')
    .action(async (o: { account: string; wait?: boolean; waitTimeout?: string }) => {
      if (o.account.trim() === '') throw new UsageError('--account must not be empty');
      const timeoutS = parseIntArg(o.waitTimeout, '--wait-timeout', { min: 1 }) ?? 60;
      const api = await ctx.api();
      const created = await createBalanceRefresh(api, o.account);
      if (!o.wait) return render(ctx, created);
      ctx.notice(`balance refresh ${created.balanceRefreshId} started; waiting for it to finish`);
      const deadline = ctx.clock.now() + timeoutS * 1000;
      for (;;) {
        const s = await getBalanceRefresh(api, created.balanceRefreshId);
        if (s.status === 'FINISHED') return render(ctx, { ...created, ...s });
        if (ctx.clock.now() > deadline)
          throw new FlowFailedError(
            `balance refresh ${created.balanceRefreshId} did not finish within ${timeoutS} s (last status ${s.status})`,
          );
        await new Promise((r) => setTimeout(r, 250));
      }
    });
  examples(create, [
    'bankctl balance-refresh create --account $ACCOUNT --user $USER_ID',
    'bankctl balance-refresh create --account $ACCOUNT --wait',
  ]);

  const status = br
    .command('status')
    .argument('<refreshId>', 'the balanceRefreshId that create printed')
    .description('the status of a balance refresh (GET /api/v1/balance-refresh/{id}, balance-refresh:readonly)')
    .action(async (id: string) => {
      await render(ctx, await getBalanceRefresh(await ctx.api(), id));
    });
  examples(status, ['bankctl balance-refresh status 5f6d0c2a9b8e4f7a8c1d2e3f4a5b6c7d --user $USER_ID']);
}
