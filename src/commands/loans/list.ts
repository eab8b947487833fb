// `loans list`: the user's loans; a table ends with the total and the weighted interest.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listLoans } from '../../api/reads.js';
import { render } from '../../output/render.js';
import { examples, renderWhole, type Run } from '../util.js';
import { accountCurrencies, moneyColumn, exactText } from '../accounts/format.js';

export type ListOptions = Record<string, never>;

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description(
      'list loans (GET /api/v1/loans, accounts:read; deprecated by the service). -o json prints the whole LoanResponse',
    )
    .action(async () => run(ctx, {}));
  return examples(cmd, ['bankctl loans list --user $USER_ID', 'bankctl loans list -o json | jq .totalLoanAmount']);
}

export async function listRun(ctx: Context): Promise<void> {
  const res = await listLoans(await ctx.api());
  const format = await ctx.outputFormat();
  if (format === 'json') return renderWhole(ctx, () => render(ctx, res), 'loans', 'loans');
  const currencyOf = format === 'ndjson' ? () => undefined : await accountCurrencies(ctx, res.loans);
  await render(ctx, res.loans, {
    columns: [
      { header: 'name', path: 'name' },
      { header: 'type', path: 'type' },
      moneyColumn('balance', 'balance', currencyOf),
      { header: 'interest', path: 'interest', format: (v) => exactText(v) },
      { header: 'account', path: 'accountId' },
      { header: 'loanNumber', path: 'loanNumber' },
    ],
  });
  const currency = res.loans.length > 0 ? currencyOf(res.loans[0]) : undefined;
  const cur = currency !== undefined && res.loans.every((l) => currencyOf(l) === currency) ? ` ${currency}` : '';
  if (format === 'table' && res.totalLoanAmount !== undefined)
    ctx.notice(
      `total ${exactText(res.totalLoanAmount)}${cur}, weighted average interest ${exactText(res.weightedAverageInterestRate)}`,
    );
}
