import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../util.js';

export function registerCredentialsGet(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('get')
    .description('show one set of credentials (GET /api/v1/credentials/{id})')
    .argument('<id>', 'credentials id')
    .action(async (id: string) => {
      const { getCredentials } = await import('../../api/credentials.js');
      const { render } = await import('../../output/render.js');
      await render(ctx, await getCredentials(await ctx.api(), id));
    });
  examples(cmd, [
    'bankctl credentials get 6e68cc6287704273984567b3300c5822',
    'bankctl credentials get 6e68cc6287704273984567b3300c5822 -o json | jq -r .status',
  ]);
}
