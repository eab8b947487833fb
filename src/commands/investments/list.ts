// `investments list`: the user's portfolios, values exact.
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import type { Context } from '../../context.js';
import { listInvestments, PORTFOLIO_TYPES } from '../../api/reads.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { collect, examples, splitList, type Run } from '../util.js';
import { accountCurrencies, moneyColumn } from '../accounts/format.js';

export interface ListOptions {
  portfolioTypes: string[];
}

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description('list portfolios (GET /api/v1/investments, investments:read; deprecated by the service)')
    .option('--portfolio-type <type>', `only this type (repeatable): ${PORTFOLIO_TYPES.join(', ')}`, collect)
    .action(async (o: { portfolioType?: string[] }) => {
      const portfolioTypes = splitList(o.portfolioType, '--portfolio-type').map((t) => t.toUpperCase());
      for (const t of portfolioTypes)
        if (!(PORTFOLIO_TYPES as readonly string[]).includes(t))
          throw new UsageError(`--portfolio-type must be one of ${PORTFOLIO_TYPES.join(', ')}, got "${t}"`);
      await run(ctx, { portfolioTypes });
    });
  completeOption(cmd, '--portfolio-type', () => PORTFOLIO_TYPES);
  return examples(cmd, [
    'bankctl investments list --user $USER_ID',
    'bankctl investments list --portfolio-type ISK --portfolio-type KF -o json',
  ]);
}

export async function listRun(ctx: Context, o: ListOptions): Promise<void> {
  const portfolios = await listInvestments(await ctx.api(), o.portfolioTypes);
  // a portfolio's values are in its account's currency (its instruments trade in their own)
  const format = await ctx.outputFormat();
  const currencyOf =
    format === 'json' || format === 'ndjson' ? () => undefined : await accountCurrencies(ctx, portfolios);
  await render(ctx, portfolios, {
    columns: [
      { header: 'id', path: 'id' },
      { header: 'type', path: 'type' },
      { header: 'account', path: 'accountId' },
      moneyColumn('totalValue', 'totalValue', currencyOf),
      moneyColumn('cash', 'cashValue', currencyOf),
      {
        header: 'instruments',
        path: 'instruments',
        format: (v) => (Array.isArray(v) ? v.map((i: { name?: string }) => i.name).join('; ') : ''),
      },
    ],
  });
}
