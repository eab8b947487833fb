// `balance-refresh create`: start a balance refresh, and with --wait poll it until it ends: FINISHED
// (exit 0) or FAILED (exit 9); REFRESHING (and any other status) keeps the poll going.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { createBalanceRefresh, getBalanceRefresh } from '../../api/accounts.js';
import { FlowFailedError, UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { stripControl } from '../../output/sanitize.js';
import { examples, parseIntArg, type Run } from '../util.js';

export interface CreateOptions {
  account: string;
  wait: boolean;
  waitTimeoutS: number;
}

export function newCmdCreate(parent: Command, ctx: Context, run: Run<CreateOptions> = createRun): Command {
  const cmd = parent
    .command('create')
    .description('start a balance refresh (POST /api/v1/balance-refresh, balance-refresh)')
    .requiredOption('--account <id>', 'the account to refresh')
    .option('--wait', 'poll the status until FINISHED (exit 0) or FAILED (exit 9), then print it')
    .option('--wait-timeout <seconds>', 'give up waiting after this long (default 60)')
    .action(async (o: { account: string; wait?: boolean; waitTimeout?: string }) => {
      if (o.account.trim() === '') throw new UsageError('--account must not be empty');
      const waitTimeoutS = parseIntArg(o.waitTimeout, '--wait-timeout', { min: 1 }) ?? 60;
      await run(ctx, { account: o.account, wait: Boolean(o.wait), waitTimeoutS });
    });
  return examples(cmd, [
    'bankctl balance-refresh create --account $ACCOUNT --user $USER_ID',
    'bankctl balance-refresh create --account $ACCOUNT --wait',
  ]);
}

export async function createRun(ctx: Context, o: CreateOptions): Promise<void> {
  const api = await ctx.api();
  const created = await createBalanceRefresh(api, o.account);
  if (!o.wait) return render(ctx, created);
  ctx.notice(`balance refresh ${created.balanceRefreshId} started; waiting for it to finish`);
  const deadline = ctx.clock.now() + o.waitTimeoutS * 1000;
  for (;;) {
    const s = await getBalanceRefresh(api, created.balanceRefreshId);
    if (s.status === 'FINISHED') return render(ctx, { ...created, ...s });
    if (s.status === 'FAILED') {
      await render(ctx, { ...created, ...s });
      throw new FlowFailedError(`balance refresh ${created.balanceRefreshId} ended with status FAILED`);
    }
    if (ctx.clock.now() > deadline)
      throw new FlowFailedError(
        `balance refresh ${created.balanceRefreshId} did not finish within ${o.waitTimeoutS} s (last status ${stripControl(String(s.status))})`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}
