// `accounts balances ID`: an account's balances, exact; a row per kind of balance.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getBalances } from '../../api/accounts.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { balanceAmountCell, forTerminal } from './format.js';

export interface BalancesOptions {
  id: string;
}

export function newCmdBalances(parent: Command, ctx: Context, run: Run<BalancesOptions> = balancesRun): Command {
  const cmd = parent
    .command('balances')
    .argument('<id>', 'account id')
    .description("an account's balances, exact (GET /api/v1/accounts/{id}/balances, balances:read)")
    .action(async (id: string) => run(ctx, { id }));
  return examples(cmd, [
    'bankctl accounts balances 8937fa00166946cbbcbbec569c9d6e90 --user $USER_ID',
    'bankctl accounts balances $ACCOUNT -o json | jq .balances.booked',
  ]);
}

export async function balancesRun(ctx: Context, o: BalancesOptions): Promise<void> {
  const b = await getBalances(await ctx.api(), o.id);
  if ((await ctx.outputFormat()) === 'json') return render(ctx, forTerminal(ctx, b));
  // table, csv, ndjson: one row per kind of balance
  const rows = Object.entries(b.balances ?? {}).map(([kind, v]) => ({
    accountId: b.accountId,
    kind,
    amount: v,
  }));
  await render(ctx, forTerminal(ctx, rows), {
    columns: [
      { header: 'kind', path: 'kind' },
      { header: 'amount', path: 'amount', format: (v) => balanceAmountCell(v) },
    ],
  });
}
