// `providers get NAME [--market M]`: one provider and the fields its credentials take, found the way
// the vendor reference allows: in a market's list (GET /api/v1/providers/{market}) or by the `name`
// query parameter of GET /api/v1/providers. Exit 4 when there is none.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { V1_PROVIDER_FIELDS } from '../../contract/item-fields.js';
import { UsageError } from '../../errors.js';
import { examples, marketFlag, type Run } from '../util.js';

export interface GetOptions {
  name: string;
  market?: string;
}

export function newCmdGet(parent: Command, ctx: Context, run: Run<GetOptions> = getRun): Command {
  const cmd = parent
    .command('get')
    .description(
      "show one provider and the fields its credentials take (from a market's list, GET /api/v1/providers/{market}, or GET /api/v1/providers?name=NAME); exit 4 when there is none",
    )
    .argument('<name>', 'provider name, e.g. se-test-password')
    .option('--market <code>', "look in this market's list (default: the market the name starts with, se-...)")
    .action(async (name: string, o: { market?: string }) => {
      if (name.trim() === '') throw new UsageError('the provider name must not be empty');
      const market = marketFlag(o.market);
      await run(ctx, market ? { name, market } : { name });
    });
  return examples(cmd, [
    'bankctl providers get se-test-other-eid-successful',
    'bankctl providers get se-test-other-third-party-app-successful --market SE',
    'bankctl providers get se-test-password -o json | jq ".fields"',
  ]);
}

export async function getRun(ctx: Context, o: GetOptions): Promise<void> {
  const { findProvider } = await import('../../api/providers.js');
  const { render } = await import('../../output/render.js');
  await render(ctx, await findProvider(await ctx.api(), o.name, { market: o.market }), {
    declared: V1_PROVIDER_FIELDS,
  });
}
