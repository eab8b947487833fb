// `accounts balances ID`: an account's balances, exact; a row per kind of balance.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getBalances } from '../../api/accounts.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { balanceAmountCell } from './format.js';
import { balancesV2Run } from './balances-v2.js';

export interface BalancesOptions {
  id: string;
  /** Read GET /data/v2/accounts/{id}/balances. */
  v2?: boolean;
}

export function newCmdBalances(parent: Command, ctx: Context, run: Run<BalancesOptions> = balancesRun): Command {
  const cmd = parent
    .command('balances')
    .argument('<id>', 'account id')
    .description(
      "an account's balances, exact: v1 (GET /api/v1/accounts/{id}/balances, balances:read) unless --v2 (GET /data/v2/accounts/{id}/balances, accounts.balances:readonly)",
    )
    .option('--v2', 'read the data v2 balances (booked, available with and without credit, credit limit)')
    .action(async (id: string, f: { v2?: boolean }) => run(ctx, f.v2 ? { id, v2: true } : { id }));
  return examples(cmd, [
    'bankctl accounts balances 8937fa00166946cbbcbbec569c9d6e90 --user $USER_ID',
    'bankctl accounts balances $ACCOUNT -o json | jq .balances.booked',
    'bankctl accounts balances $ACCOUNT --v2 -o csv',
  ]);
}

export async function balancesRun(ctx: Context, o: BalancesOptions): Promise<void> {
  if (o.v2) return balancesV2Run(ctx, o);
  const b = await getBalances(await ctx.api(), o.id);
  if ((await ctx.outputFormat()) === 'json') return render(ctx, b);
  // table, csv, ndjson: one row per kind of balance
  // each row keeps when the balances were refreshed, as --v2's rows do: how old they are
  const rows = Object.entries(b.balances ?? {}).map(([kind, v]) => ({
    accountId: b.accountId,
    kind,
    amount: v,
    refreshed: b.refreshed,
  }));
  await render(ctx, rows, {
    columns: [
      { header: 'kind', path: 'kind' },
      { header: 'amount', path: 'amount', format: (v) => balanceAmountCell(v), money: true },
      { header: 'refreshed', path: 'refreshed' },
    ],
  });
}
