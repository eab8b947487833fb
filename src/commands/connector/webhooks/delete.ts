// `connector webhooks delete ID`: remove a connector webhook.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { deleteConnectorWebhook } from '../../../api/webhooks.js';
import { examples, type Run } from '../../util.js';
import { confirmDestructive, where } from '../../../prompts/confirm.js';

export interface DeleteOptions {
  id: string;
}

export function newCmdDelete(parent: Command, ctx: Context, run: Run<DeleteOptions> = deleteRun): Command {
  const cmd = parent
    .command('delete')
    .argument('<id>', 'the webhook id (from `bankctl connector webhooks list`)')
    .description('remove a webhook (DELETE /connector/webhooks/{id})')
    .action(async (id: string) => {
      await confirmDestructive(ctx, {
        action: `delete connector webhook ${id}`,
        details: [`connector webhook: ${id}`, ...(await where(ctx))],
      });
      await run(ctx, { id });
    });
  return examples(cmd, [
    'bankctl connector webhooks delete 3f1c0d9a8b7e4f6a9c2d1e0f3a4b5c6d',
    'bankctl connector webhooks delete 3f1c0d9a8b7e4f6a9c2d1e0f3a4b5c6d --yes   # in a script: no terminal to confirm on',
  ]);
}

export async function deleteRun(ctx: Context, o: DeleteOptions): Promise<void> {
  await deleteConnectorWebhook(await ctx.api(), o.id);
  ctx.notice(`deleted webhook ${o.id}`);
}
