// `providers get NAME`: one provider and the fields its credentials take.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Run } from '../util.js';

export interface GetOptions {
  name: string;
}

export function newCmdGet(parent: Command, ctx: Context, run: Run<GetOptions> = getRun): Command {
  const cmd = parent
    .command('get')
    .description('show one provider and the fields its credentials take (GET /api/v1/providers/{name})')
    .argument('<name>', 'provider name, e.g. se-test-password')
    .action(async (name: string) => run(ctx, { name }));
  return examples(cmd, [
    'bankctl providers get se-test-other-eid-successful',
    'bankctl providers get se-test-password -o json | jq ".fields"',
  ]);
}

export async function getRun(ctx: Context, o: GetOptions): Promise<void> {
  const { getProvider } = await import('../../api/providers.js');
  const { render } = await import('../../output/render.js');
  await render(ctx, await getProvider(await ctx.api(), o.name));
}
