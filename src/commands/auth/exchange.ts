// `auth exchange CODE`: an authorization code for a user token, cached in the profile.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';

export interface ExchangeOptions {
  code: string;
}

export function newCmdExchange(parent: Command, ctx: Context, run: Run<ExchangeOptions> = exchangeRun): Command {
  const cmd = parent
    .command('exchange')
    .argument('<code>', 'the authorization code')
    .description(
      'exchange an authorization code for a user token (grant_type=authorization_code); the token is cached in the profile',
    )
    .action(async (code: string) => run(ctx, { code }));
  return examples(cmd, [
    'bankctl auth exchange c50cd6960a6f44ffb701ef60fafa7761',
    'bankctl auth exchange "$CODE" -o json | jq -r .access_token',
  ]);
}

export async function exchangeRun(ctx: Context, o: ExchangeOptions): Promise<void> {
  const tm = await ctx.tokens();
  const t = await tm.exchange(o.code);
  tm.remember(t, t.refresh_token ? 'exchanged-with-refresh' : `exchanged:${t.scope ?? ''}`);
  await render(ctx, t);
}
