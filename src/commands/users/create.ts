// `users create --market M`: a new end user; --use makes it the profile's default user.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { createUser } from '../../api/users.js';
import { isLocale, LOCALES, MARKET_DEFAULT_LOCALE, MARKETS } from '../../contract/markets.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples, marketFlag, savedAfterChange, type Run } from '../util.js';

export interface CreateOptions {
  market: string;
  locale?: string;
  externalId?: string;
  use: boolean;
}

export function newCmdCreate(parent: Command, ctx: Context, run: Run<CreateOptions> = createRun): Command {
  const cmd = parent
    .command('create')
    .description('create a user (POST /api/v1/user/create, client token with user:create)')
    .requiredOption('--market <code>', `market, ISO 3166-1 (${MARKETS.join(', ')})`)
    .option('--locale <locale>', "locale, e.g. sv_SE (default: the market's own)")
    .option('--external-id <id>', 'your own identifier for the user (external_user_id)')
    .option('--use', "store the new user id as the profile's default user")
    .action(async (o: { market: string; locale?: string; externalId?: string; use?: boolean }) => {
      const market = marketFlag(o.market)!;
      const locale = o.locale ?? MARKET_DEFAULT_LOCALE[market];
      if (locale && !isLocale(locale))
        throw new UsageError(`unsupported locale "${o.locale}"`, { hint: `one of ${LOCALES.join(', ')}` });
      await run(ctx, { market, locale, externalId: o.externalId, use: Boolean(o.use) });
    });
  return examples(cmd, [
    'bankctl users create --market SE --locale sv_SE',
    'bankctl users create --market GB --external-id alice --use',
    'USER_ID=$(bankctl users create --market SE -o json | jq -r .user_id)',
  ]);
}

export async function createRun(ctx: Context, o: CreateOptions): Promise<void> {
  const api = await ctx.api();
  const created = await createUser(api, { market: o.market, locale: o.locale, external_user_id: o.externalId });
  // the new user first: a config that cannot be written must not lose the id of a user that exists
  await render(ctx, created);
  if (o.use) {
    await savedAfterChange(`user ${created.user_id} was created`, async () =>
      (await ctx.config()).set(ctx.profileName(), 'user', created.user_id),
    );
    ctx.notice(`profile "${ctx.profileName()}" now acts as user ${created.user_id}`);
  }
}
