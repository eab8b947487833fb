// `investments holdings ID`: an investment account's holdings (GET /data/v2/investment-accounts/{id}/holdings),
// page after page by nextPageToken with flat memory.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { EP } from '../../contract/index.js';
import { MAX_V2_PAGE_SIZE, pages } from '../../api/data-v2.js';
import { StreamWriter } from '../../output/render.js';
import { examples, morePages, parseIntArg, type Run } from '../util.js';
import { exactText } from '../accounts/format.js';
import { moneyCol } from '../accounts/v2-cells.js';

export interface HoldingsOptions {
  id: string;
  pageSize?: number;
  pageToken?: string;
  all: boolean;
}

export function newCmdHoldings(parent: Command, ctx: Context, run: Run<HoldingsOptions> = holdingsRun): Command {
  const cmd = parent
    .command('holdings')
    .argument('<id>', 'investment account id')
    .description(
      "an investment account's holdings, exact (data v2: GET /data/v2/investment-accounts/{id}/holdings, investment-accounts:readonly)",
    )
    .option('--page-size <n>', `holdings per page, at most ${MAX_V2_PAGE_SIZE} (the service's default is 10)`)
    .option('--page-token <token>', 'start at this page (a nextPageToken; "" is the first page)')
    .option('--all', 'follow nextPageToken to the last page')
    .action(async (id: string, f: { pageSize?: string; pageToken?: string; all?: boolean }) =>
      run(ctx, {
        id,
        pageSize: parseIntArg(f.pageSize, '--page-size', { min: 1, max: MAX_V2_PAGE_SIZE }),
        pageToken: f.pageToken,
        all: Boolean(f.all),
      }),
    );
  return examples(cmd, [
    'bankctl investments holdings $ACCOUNT --all --user $USER_ID',
    'bankctl investments holdings $ACCOUNT --all -o ndjson | jq .holdingValue',
  ]);
}

export async function holdingsRun(ctx: Context, o: HoldingsOptions): Promise<void> {
  const writer = new StreamWriter(ctx, await ctx.outputFormat(), {
    columns: [
      { header: 'name', path: 'financialInstrument.name' },
      { header: 'isin', path: 'financialInstrument.identifiers.isin' },
      { header: 'type', path: 'financialInstrument.type' },
      { header: 'quantity', path: 'quantity', format: (v) => exactText(v) },
      moneyCol('value', 'holdingValue'),
      moneyCol('return', 'holdingReturn'),
      moneyCol('avgPrice', 'averageAcquisitionPrice'),
    ],
  });
  let next = '';
  const read = { ep: EP.dataV2.holdings, key: 'holdings', path: { id: o.id }, pageSize: o.pageSize };
  for await (const page of pages(await ctx.api(), read, { all: o.all, startToken: o.pageToken })) {
    next = page.nextPageToken;
    await writer.writeMany(page.items);
  }
  await writer.end();
  if (!o.all && next) morePages(ctx, 'holdings', next);
}
