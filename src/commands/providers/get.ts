import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../util.js';

export function registerProvidersGet(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('get')
    .description('show one provider and the fields its credentials take (GET /api/v1/providers/{name})')
    .argument('<name>', 'provider name, e.g. se-test-password')
    .action(async (name: string) => {
      const { getProvider } = await import('../../api/providers.js');
      const { render } = await import('../../output/render.js');
      await render(ctx, await getProvider(await ctx.api(), name));
    });
  examples(cmd, [
    'bankctl providers get se-test-other-eid-successful',
    'bankctl providers get se-test-password -o json | jq ".fields"',
  ]);
}
