// `providers markets`: the markets that have providers (GET /api/v1/providers/markets).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Run } from '../util.js';

export type MarketsOptions = Record<string, never>;

export function newCmdMarkets(parent: Command, ctx: Context, run: Run<MarketsOptions> = marketsRun): Command {
  const cmd = parent
    .command('markets')
    .description('list the markets that have providers (GET /api/v1/providers/markets)')
    .action(async () => run(ctx, {}));
  return examples(cmd, ['bankctl providers markets', 'bankctl providers markets -o json | jq -r ".[].market"']);
}

export async function marketsRun(ctx: Context): Promise<void> {
  const { listMarkets } = await import('../../api/providers.js');
  const { render } = await import('../../output/render.js');
  const markets = (await listMarkets(await ctx.api())).map((market) => ({ market }));
  await render(ctx, markets, { columns: [{ header: 'market', path: 'market' }] });
}
