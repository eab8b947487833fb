import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listHooks } from '../../api/webhooks.js';
import { examples } from '../util.js';
import { API_HOOK_COLUMNS, renderHooks } from './shared.js';

export function registerWebhooksList(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('list')
    .description(
      "list webhooks registered through the API (GET /api/v1/hooks): the client's, or with --user that user's",
    )
    .action(async () => {
      const api = await ctx.api();
      await renderHooks(ctx, await listHooks(api), API_HOOK_COLUMNS);
    });
  examples(cmd, [
    'bankctl webhooks list',
    'bankctl webhooks list --user 6e68cc6287704273984567b3300c5823',
    'bankctl webhooks list -o json | jq -r ".[].id"',
  ]);
}
