import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { deleteHook } from '../../api/webhooks.js';
import { examples } from '../util.js';

export function registerWebhooksDelete(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('delete')
    .argument('<id>', 'the webhook id (from `bankctl webhooks list`)')
    .description('remove a webhook registered through the API (DELETE /api/v1/hooks/{id})')
    .action(async (id: string) => {
      const api = await ctx.api();
      await deleteHook(api, id);
      ctx.notice(`deleted webhook ${id}`);
    });
  examples(cmd, [
    'bankctl webhooks delete 3f1c0d9a8b7e4f6a9c2d1e0f3a4b5c6d',
    'bankctl webhooks list -o json | jq -r ".[].id" | xargs -n1 bankctl webhooks delete',
  ]);
}
