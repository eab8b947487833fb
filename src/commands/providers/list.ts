// `providers list`: the providers of a market, test providers with --include-test or --only-test.
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import type { Context } from '../../context.js';
import { V1_PROVIDER_FIELDS } from '../../contract/item-fields.js';
import { MARKETS } from '../../contract/markets.js';
import { PROVIDER_CAPABILITIES } from '../../contract/vocabulary.js';
import { UsageError } from '../../errors.js';
import type { Column } from '../../output/render.js';
import { examples, marketFlag, type Run } from '../util.js';

export const CAPABILITIES = PROVIDER_CAPABILITIES;

export const PROVIDER_COLUMNS: Column[] = [
  { header: 'name', path: 'name' },
  { header: 'displayName', path: 'displayName' },
  { header: 'type', path: 'type' },
  { header: 'credentialsType', path: 'credentialsType' },
  { header: 'market', path: 'market' },
  { header: 'capabilities', path: 'capabilities', format: (v) => (Array.isArray(v) ? v.join(' ') : '') },
];

export interface ListOptions {
  market?: string;
  includeTestProviders: boolean;
  excludeNonTestProviders: boolean;
  capability?: string;
  name?: string;
}

interface Flags {
  market?: string;
  includeTest?: boolean;
  onlyTest?: boolean;
  capability?: string;
  name?: string;
}

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description(
      "list providers: with a user (--user, BANKCTL_USER or the profile's) that user's list (GET /api/v1/providers, user token, credentials:read), else each market's list (GET /api/v1/providers/{market}, no token needed)",
    )
    .option('--market <code>', `only this market (${MARKETS.join(', ')})`)
    .option('--include-test', 'include test providers (includeTestProviders=true)')
    .option('--only-test', 'only test providers (includeTestProviders=true&excludeNonTestProviders=true)')
    .option('--capability <cap>', `only providers with this capability (${CAPABILITIES.slice(0, 7).join(', ')}, ...)`)
    .option('--name <name>', 'only the provider with this name')
    .action(async (o: Flags) => {
      const market = marketFlag(o.market);
      const capability = o.capability?.toUpperCase();
      if (capability && !CAPABILITIES.includes(capability))
        throw new UsageError(`--capability: unknown capability "${o.capability}"`, {
          hint: `one of ${CAPABILITIES.join(', ')}`,
        });
      await run(ctx, {
        market,
        includeTestProviders: Boolean(o.includeTest || o.onlyTest),
        excludeNonTestProviders: Boolean(o.onlyTest),
        capability,
        name: o.name,
      });
    });
  completeOption(cmd, '--capability', () => CAPABILITIES);
  return examples(cmd, [
    'bankctl providers list --market SE',
    'bankctl providers list --market SE --only-test --fields name,credentialsType',
    'bankctl providers list --market GB --capability PAYMENTS -o json | jq -r ".[].name"',
  ]);
}

export async function listRun(ctx: Context, o: ListOptions): Promise<void> {
  const { listProviders } = await import('../../api/providers.js');
  const { render } = await import('../../output/render.js');
  const clientId = (await ctx.settings()).value('client-id');
  await render(ctx, await listProviders(await ctx.api(), o, { clientId }), {
    columns: PROVIDER_COLUMNS,
    declared: V1_PROVIDER_FIELDS,
  });
}
