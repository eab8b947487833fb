// `investments accounts [ID]`: investment accounts as data v2 shows them
// (GET /data/v2/investment-accounts, or /{id} for one), values exact.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getInvestmentAccount, listInvestmentAccounts } from '../../api/data-v2.js';
import { render } from '../../output/render.js';
import { V2_INVESTMENT_ACCOUNT_FIELDS } from '../../contract/item-fields.js';
import { examples, type Run } from '../util.js';
import { moneyCol, renderOne } from '../accounts/v2-cells.js';

export interface AccountsOptions {
  id?: string;
}

export function newCmdAccounts(parent: Command, ctx: Context, run: Run<AccountsOptions> = accountsRun): Command {
  const cmd = parent
    .command('accounts')
    .argument('[id]', 'one investment account')
    .description(
      'list investment accounts, or show one (data v2: GET /data/v2/investment-accounts[/{id}], investment-accounts:readonly)',
    )
    .action(async (id: string | undefined) => run(ctx, id ? { id } : {}));
  return examples(cmd, [
    'bankctl investments accounts --user $USER_ID',
    'bankctl investments accounts $ACCOUNT -o json | jq .holdingValue.total',
  ]);
}

export async function accountsRun(ctx: Context, o: AccountsOptions): Promise<void> {
  const api = await ctx.api();
  const data = o.id ? await getInvestmentAccount(api, o.id) : await listInvestmentAccounts(api);
  const columns = [
    { header: 'id', path: 'id' },
    { header: 'name', path: 'accountName' },
    { header: 'product', path: 'financialProduct' },
    moneyCol('booked', 'balances.booked.amount'),
    moneyCol('cash', 'balances.available.amount'),
    moneyCol('holdings', 'holdingValue.total'),
    { header: 'refreshed', path: 'dates.lastRefreshed' },
  ];
  if (o.id) return renderOne(ctx, data, { columns, declared: V2_INVESTMENT_ACCOUNT_FIELDS });
  await render(ctx, data, { columns, declared: V2_INVESTMENT_ACCOUNT_FIELDS });
}
