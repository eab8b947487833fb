// `search WORDS...`: search the user's transactions. A noun that is one command: it configures the
// `search` command that src/program.ts made (with its description) instead of adding a verb.
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { Context } from '../context.js';
import { searchTransactions } from '../api/search.js';
import { decimalString } from '../output/money.js';
import { render } from '../output/render.js';
import { examples, parseIntArg, renderWhole, type Run } from './util.js';
import { singleLine, visibleCode } from '../output/sanitize.js';
import { V1_TRANSACTION_FIELDS } from '../contract/item-fields.js';

type Amount = { unscaledValue: number | string; scale: number; currencyCode: string };

export interface SearchOptions {
  queryString: string;
  limit?: number;
  offset?: number;
}

export function newCmdSearch(search: Command, ctx: Context, run: Run<SearchOptions> = searchRun): Command {
  search
    .argument(
      '<query...>',
      'words, all of which must match: #tags, amount spans (over/under/more than/less than/around N), dates (today, yesterday, this/last week/month/year, weekdays, weekends, week N), category names; Swedish keywords for sv_SE users',
    )
    .option('--limit <n>', 'at most this many results (default 50)')
    .option('--offset <n>', 'skip this many results')
    .action(async (words: string[], o: { limit?: string; offset?: string }) => {
      // a script's variable that came out empty: not every transaction with exit 0
      if (words.join('').trim() === '')
        throw new UsageError('the search query is empty', {
          hint: 'give the words to search for (`bankctl transactions list` lists every transaction)',
        });
      const limit = parseIntArg(o.limit, '--limit', { min: 1, max: 1000 });
      const offset = parseIntArg(o.offset, '--offset', { min: 0 });
      await run(ctx, { queryString: words.join(' '), limit, offset });
    });
  return examples(search, [
    "bankctl search coffee this month   # an en_US user: keywords and date words follow the user's locale",
    'bankctl search "#holiday" over 500   # en_US',
    'bankctl search restaurants last month --limit 10 -o json   # en_US',
    'bankctl search coffee this month -o json | jq .net   # json: the whole SearchResponse; ndjson: one transaction a line',
    'bankctl search fika förra månaden   # a sv_SE user',
  ]);
}

export const registerSearch = (search: Command, ctx: Context): void => void newCmdSearch(search, ctx);

export async function searchRun(ctx: Context, o: SearchOptions): Promise<void> {
  const r = await searchTransactions(await ctx.api(), {
    queryString: o.queryString,
    ...(o.limit ? { limit: o.limit } : {}),
    ...(o.offset ? { offset: o.offset } : {}),
  });
  if ((await ctx.outputFormat()) === 'json') return renderWhole(ctx, () => render(ctx, r), 'results', 'transactions');
  const rows = r.results.map((x) => x.transaction);
  // the category's name, as `transactions list` shows it (the catalogue in the user's locale)
  const names = new Map<string, string>();
  if (rows.some((t) => (t as { categoryId?: unknown }).categoryId)) {
    try {
      const { listCategories } = await import('../api/reads.js');
      for (const c of await listCategories(await ctx.api()))
        names.set(c.id, String(c.secondaryName ?? c.primaryName ?? ''));
    } catch {
      // the ids then
    }
  }
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
            ? `${decimalString(String(a.unscaledValue), a.scale)} ${visibleCode(String(a.currencyCode))}`
            : String((t as { amount?: number }).amount ?? '');
        },
        money: true,
      },
      { header: 'category', path: 'categoryId', format: (v) => names.get(String(v)) ?? String(v ?? '') },
      { header: 'account', path: 'accountId' },
      { header: 'id', path: 'id' },
    ],
    declared: V1_TRANSACTION_FIELDS,
  });
  // the service's net counts only the hits in the user's own currency (SearchResponse.net), which
  // the rows of one page do not tell: it is shown as sent, saying so, never labelled with theirs
  const summary = `${rows.length} of ${r.count} matching transactions; net of those in the user's currency ${String(r.net)}`;
  const after = (o.offset ?? 0) + rows.length;
  // more hits than shown: the rows are partial with exit 0, so the line is not one -q hides
  if (Number(r.count) > after) ctx.io.stderr.write(`${singleLine(`${summary} (more: --offset ${after})`)}\n`);
  else ctx.notice(summary);
}
