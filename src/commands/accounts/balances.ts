import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getBalances } from '../../api/accounts.js';
import { render } from '../../output/render.js';
import { examples } from '../util.js';
import { amountCell, forTerminal } from './format.js';

export function registerAccountsBalances(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('balances')
    .argument('<id>', 'account id')
    .description("an account's balances, exact (GET /api/v1/accounts/{id}/balances, balances:read)")
    .action(async (id: string) => {
      const b = await getBalances(await ctx.api(), id);
      const format = await ctx.outputFormat();
      if (format === 'json') return render(ctx, forTerminal(ctx, b));
      // table, csv, ndjson: one row per kind of balance
      const rows = Object.entries(b.balances ?? {}).map(([kind, v]) => ({
        accountId: b.accountId,
        kind,
        amount: v?.amount,
      }));
      await render(ctx, forTerminal(ctx, rows), {
        columns: [
          { header: 'kind', path: 'kind' },
          { header: 'amount', path: 'amount', format: (v) => amountCell(v) },
        ],
      });
    });
  examples(cmd, [
    'bankctl accounts balances 8937fa00166946cbbcbbec569c9d6e90 --user $USER_ID',
    'bankctl accounts balances $ACCOUNT -o json | jq .balances.booked',
  ]);
}
