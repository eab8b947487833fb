import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { searchTransactions } from '../../api/search.js';
import { decimalString } from '../../output/money.js';
import { render } from '../../output/render.js';
import { examples, parseIntArg } from '../util.js';

type Amount = { unscaledValue: number | string; scale: number; currencyCode: string };

export function registerSearch(program: Command, ctx: Context): void {
  const cmd = program
    .command('search')
    .argument(
      '<query...>',
      'words, all of which must match: #tags, amount spans (over/under/more than/less than/around N), dates (today, yesterday, this/last week/month/year, weekdays, weekends, week N), category names; Swedish keywords for sv_SE users',
    )
    .description("search the user's transactions (POST /api/v1/search)")
    .option('--limit <n>', 'at most this many results (default 50)')
    .option('--offset <n>', 'skip this many results')
    .action(async (words: string[], o: { limit?: string; offset?: string }) => {
      const limit = parseIntArg(o.limit, '--limit', { min: 1, max: 1000 });
      const offset = parseIntArg(o.offset, '--offset', { min: 0 });
      const r = await searchTransactions(await ctx.api(), {
        queryString: words.join(' '),
        ...(limit ? { limit } : {}),
        ...(offset ? { offset } : {}),
      });
      if ((await ctx.outputFormat()) === 'json') return render(ctx, r);
      const rows = r.results.map((x) => x.transaction);
      await render(ctx, rows, {
        columns: [
          {
            header: 'date',
            path: 'date',
            format: (v) => (typeof v === 'number' ? new Date(v).toISOString().slice(0, 10) : ''),
          },
          { header: 'description', path: 'description' },
          {
            header: 'amount',
            path: 'currencyDenominatedAmount',
            format: (v, t) => {
              const a = v as Amount | undefined;
              return a
                ? `${decimalString(String(a.unscaledValue), a.scale)} ${a.currencyCode}`
                : String((t as { amount?: number }).amount ?? '');
            },
          },
          { header: 'category', path: 'categoryId' },
          { header: 'account', path: 'accountId' },
          { header: 'id', path: 'id' },
        ],
      });
      ctx.notice(`${rows.length} of ${r.count} matching transactions, net ${String(r.net)}`);
    });
  examples(cmd, [
    'bankctl search coffee this month',
    'bankctl search "#holiday" over 500',
    'bankctl search restaurants last month --limit 10 -o json',
    'bankctl search fika förra månaden   # a sv_SE user',
  ]);
}
