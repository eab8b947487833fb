// `credentials list`: the user's credentials.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Run } from '../util.js';
import { CREDENTIALS_VIEW } from './shared.js';

export type ListOptions = Record<string, never>;

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description("list the user's credentials (GET /api/v1/credentials/list)")
    .action(async () => run(ctx, {}));
  return examples(cmd, [
    'bankctl credentials list --user 6e68cc6287704273984567b3300c5823',
    'bankctl credentials list -o json | jq -r \'.[] | select(.status != "UPDATED") | .id\'',
  ]);
}

export async function listRun(ctx: Context): Promise<void> {
  const { listCredentials } = await import('../../api/credentials.js');
  const { render } = await import('../../output/render.js');
  await render(ctx, await listCredentials(await ctx.api()), CREDENTIALS_VIEW);
}
