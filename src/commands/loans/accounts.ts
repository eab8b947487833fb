// `loans accounts [ID]`: loan accounts as data v2 shows them (GET /data/v2/loan-accounts, or /{id}).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getLoanAccount, listLoanAccounts } from '../../api/data-v2.js';
import { render } from '../../output/render.js';
import { V2_LOAN_ACCOUNT_FIELDS } from '../../contract/item-fields.js';
import { examples, type Run } from '../util.js';
import { moneyCol, renderOne } from '../accounts/v2-cells.js';

export interface AccountsOptions {
  id?: string;
}

export function newCmdAccounts(parent: Command, ctx: Context, run: Run<AccountsOptions> = accountsRun): Command {
  const cmd = parent
    .command('accounts')
    .argument('[id]', 'one loan account')
    .description('list loan accounts, or show one (data v2: GET /data/v2/loan-accounts[/{id}], loan-accounts:readonly)')
    .action(async (id: string | undefined) => run(ctx, id ? { id } : {}));
  return examples(cmd, [
    'bankctl loans accounts --user $USER_ID',
    'bankctl loans accounts $ACCOUNT -o json | jq .loanParts',
  ]);
}

export async function accountsRun(ctx: Context, o: AccountsOptions): Promise<void> {
  const api = await ctx.api();
  const data = o.id ? await getLoanAccount(api, o.id) : await listLoanAccounts(api);
  const columns = [
    { header: 'id', path: 'id' },
    { header: 'name', path: 'accountName' },
    { header: 'type', path: 'loanType' },
    { header: 'number', path: 'identifiers.accountNumber' },
    moneyCol('principal', 'balances.principal'),
    moneyCol('initial', 'balances.initial'),
    moneyCol('paid', 'amountPaid'),
    { header: 'refreshed', path: 'dates.lastRefreshed' },
  ];
  if (o.id) return renderOne(ctx, data, { columns, declared: V2_LOAN_ACCOUNT_FIELDS });
  await render(ctx, data, { columns, declared: V2_LOAN_ACCOUNT_FIELDS });
}
