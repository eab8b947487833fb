// `webhooks endpoints delete ID`: DELETE /events/v2/webhook-endpoints/{id}.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { deleteWebhookEndpoint } from '../../../api/webhooks.js';
import { examples, type Run } from '../../util.js';
import { confirmDestructive, where } from '../../../prompts/confirm.js';

export interface DeleteOptions {
  id: string;
}

export function newCmdDelete(parent: Command, ctx: Context, run: Run<DeleteOptions> = deleteRun): Command {
  const cmd = parent
    .command('delete')
    .argument('<id>', 'the endpoint id (from `bankctl webhooks endpoints list`)')
    .description('remove an Events v2 webhook endpoint (DELETE /events/v2/webhook-endpoints/{id})')
    .action(async (id: string) => {
      await confirmDestructive(ctx, {
        action: `delete webhook endpoint ${id}`,
        details: [`webhook endpoint: ${id}`, ...(await where(ctx))],
      });
      await run(ctx, { id });
    });
  return examples(cmd, [
    'bankctl webhooks endpoints delete d8f37f7d19c240abb4ef5d5dbebae4ef',
    'bankctl webhooks endpoints delete d8f37f7d19c240abb4ef5d5dbebae4ef --yes   # in a script: no terminal to confirm on',
  ]);
}

export async function deleteRun(ctx: Context, o: DeleteOptions): Promise<void> {
  await deleteWebhookEndpoint(await ctx.api(), o.id);
  ctx.notice(`deleted webhook endpoint ${o.id}`);
}
