// `credentials refresh ID`: refresh the data of credentials; --wait walks it like `connect`.
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import { REFRESH_ITEMS } from '../../contract/vocabulary.js';
import type { Context } from '../../context.js';
import type { WalkOptions } from '../../flows/connect.js';
import { collect, examples, type Run } from '../util.js';
import {
  addWalkFlags,
  changeInterruptibly,
  CREDENTIALS_VIEW,
  parseItems,
  walkAfterRequest,
  walkOptions,
  type WalkFlags,
} from './shared.js';

export interface RefreshOptions {
  id: string;
  items?: string[];
  optIn?: boolean;
  authenticate?: boolean;
  walk?: WalkOptions;
}

type Flags = WalkFlags & { items?: string[]; optIn?: boolean; authenticate?: boolean; wait?: boolean };

export function newCmdRefresh(parent: Command, ctx: Context, run: Run<RefreshOptions> = refreshRun): Command {
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
  addWalkFlags(cmd).action(async (id: string, o: Flags) => {
    const items = parseItems(o.items);
    const walk = o.wait ? await walkOptions(ctx, id, o) : undefined;
    await run(ctx, { id, items, optIn: o.optIn, authenticate: o.authenticate, walk });
  });
  completeOption(cmd, '--items', () => REFRESH_ITEMS);
  return examples(cmd, [
    'bankctl credentials refresh 6e68cc6287704273984567b3300c5822 --wait',
    'bankctl credentials refresh 6e68cc6287704273984567b3300c5822 --opt-in --wait',
    'bankctl credentials refresh 6e68cc6287704273984567b3300c5822 --items CHECKING_ACCOUNTS,CHECKING_TRANSACTIONS',
  ]);
}

export async function refreshRun(ctx: Context, o: RefreshOptions): Promise<void> {
  const api = await ctx.api();
  const { refreshCredentials } = await import('../../api/credentials.js');
  const walk = await walkAfterRequest(ctx, o.walk);
  await changeInterruptibly(
    ctx,
    o.id,
    `the refresh of credentials ${o.id} was being started`,
    (signal) => refreshCredentials(api, o.id, { items: o.items, optIn: o.optIn, authenticate: o.authenticate, signal }),
    { busy: true },
  );
  if (!walk) {
    ctx.notice(`refresh of ${o.id} started; follow it with \`bankctl credentials watch${ctx.userFlag()} ${o.id}\``);
    return;
  }
  const { render } = await import('../../output/render.js');
  await render(ctx, await walk(), CREDENTIALS_VIEW);
}
