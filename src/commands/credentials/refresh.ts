import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { collect, examples } from '../util.js';
import { addWalkFlags, CREDENTIALS_COLUMNS, parseItems, walkOptions, type WalkFlags } from './shared.js';

export function registerCredentialsRefresh(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('refresh')
    .description(
      'refresh the data of credentials; one refresh at a time per credentials (POST /api/v1/credentials/{id}/refresh)',
    )
    .argument('<id>', 'credentials id')
    .option('--items <items>', 'data to refresh, comma-separated (all when omitted)', collect)
    .option('--opt-in', 'choose the accounts to share again first (optIn=true)')
    .option('--authenticate', 'run the authentication flow first (authenticate=true)')
    .option('--wait', 'walk the refresh to a final status like `connect` does');
  addWalkFlags(cmd).action(
    async (
      id: string,
      o: WalkFlags & { items?: string[]; optIn?: boolean; authenticate?: boolean; wait?: boolean },
    ) => {
      const items = parseItems(o.items);
      const walk = o.wait ? await walkOptions(ctx, id, o) : undefined;
      const api = await ctx.api();
      const { refreshCredentials } = await import('../../api/credentials.js');
      await refreshCredentials(api, id, { items, optIn: o.optIn, authenticate: o.authenticate });
      if (!walk) {
        ctx.notice(`refresh of ${id} started; follow it with \`bankctl credentials watch ${id}\``);
        return;
      }
      const { walkCredentials } = await import('../../flows/connect.js');
      const { render } = await import('../../output/render.js');
      await render(ctx, await walkCredentials(ctx, walk), { columns: CREDENTIALS_COLUMNS });
    },
  );
  examples(cmd, [
    'bankctl credentials refresh 6e68cc6287704273984567b3300c5822 --wait',
    'bankctl credentials refresh 6e68cc6287704273984567b3300c5822 --opt-in --wait',
    'bankctl credentials refresh 6e68cc6287704273984567b3300c5822 --items CHECKING_ACCOUNTS,CHECKING_TRANSACTIONS',
  ]);
}
