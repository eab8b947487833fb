import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../util.js';
import { addWalkFlags, CREDENTIALS_COLUMNS, walkOptions, type WalkFlags } from './shared.js';

export function registerCredentialsAuthenticate(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('authenticate')
    .description(
      'authenticate again at the bank to renew the session, without a full refresh (POST /api/v1/credentials/{id}/authenticate)',
    )
    .argument('<id>', 'credentials id')
    .option('--app-uri <url>', 'appUri for this authentication')
    .option('--wait', 'walk the authentication to a final status like `connect` does');
  addWalkFlags(cmd).action(async (id: string, o: WalkFlags & { appUri?: string; wait?: boolean }) => {
    const walk = o.wait ? await walkOptions(ctx, id, o) : undefined;
    const { authenticateCredentials } = await import('../../api/credentials.js');
    await authenticateCredentials(await ctx.api(), id, o.appUri ? { appUri: o.appUri } : {});
    if (!walk) {
      ctx.notice(`authentication of ${id} started; follow it with \`bankctl credentials watch ${id}\``);
      return;
    }
    const { walkCredentials } = await import('../../flows/connect.js');
    const { render } = await import('../../output/render.js');
    await render(ctx, await walkCredentials(ctx, walk), { columns: CREDENTIALS_COLUMNS });
  });
  examples(cmd, ['bankctl credentials authenticate 6e68cc6287704273984567b3300c5822 --wait']);
}
