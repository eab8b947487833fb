import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { render } from '../../output/render.js';
import { examples } from '../util.js';

export function registerExchange(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('exchange')
    .argument('<code>', 'the authorization code')
    .description(
      'exchange an authorization code for a user token (grant_type=authorization_code); the token is cached in the profile',
    )
    .action(async (code: string) => {
      const tm = await ctx.tokens();
      const t = await tm.exchange(code);
      tm.remember(t, t.refresh_token ? 'exchanged-with-refresh' : `exchanged:${t.scope ?? ''}`);
      await render(ctx, t);
    });
  examples(cmd, [
    'bankctl auth exchange c50cd6960a6f44ffb701ef60fafa7761',
    'bankctl auth exchange "$CODE" -o json | jq -r .access_token',
  ]);
}
