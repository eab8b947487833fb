// `webhooks delete ID`: remove a webhook registered through the API.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { deleteHook } from '../../api/webhooks.js';
import { examples, type Run } from '../util.js';
import { confirmDestructive, where } from '../../prompts/confirm.js';

export interface DeleteOptions {
  id: string;
}

export function newCmdDelete(parent: Command, ctx: Context, run: Run<DeleteOptions> = deleteRun): Command {
  const cmd = parent
    .command('delete')
    .argument('<id>', 'the webhook id (from `bankctl webhooks list`)')
    .description('remove a webhook registered through the API (DELETE /api/v1/hooks/{id})')
    .action(async (id: string) => {
      await confirmDestructive(ctx, {
        action: `delete webhook ${id}`,
        details: [`webhook: ${id}`, ...(await where(ctx))],
      });
      await run(ctx, { id });
    });
  return examples(cmd, [
    'bankctl webhooks delete 3f1c0d9a8b7e4f6a9c2d1e0f3a4b5c6d',
    'bankctl webhooks list -o json | jq -r ".[].id" | xargs -r -n1 bankctl webhooks delete --yes',
  ]);
}

export async function deleteRun(ctx: Context, o: DeleteOptions): Promise<void> {
  await deleteHook(await ctx.api(), o.id);
  ctx.notice(`deleted webhook ${o.id}`);
}
