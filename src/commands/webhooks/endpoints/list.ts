// `webhooks endpoints list`: the client's Events v2 endpoints (GET /events/v2/webhook-endpoints, every page).
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { listWebhookEndpoints } from '../../../api/webhooks.js';
import { examples, type Run } from '../../util.js';
import { renderEndpoints } from './shared.js';

export type ListOptions = Record<string, never>;

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description("list the client's Events v2 webhook endpoints (GET /events/v2/webhook-endpoints)")
    .action(async () => run(ctx, {}));
  return examples(cmd, [
    'bankctl webhooks endpoints list',
    'bankctl webhooks endpoints list -o json | jq -r ".[] | select(.disabled) | .id"',
  ]);
}

export async function listRun(ctx: Context): Promise<void> {
  await renderEndpoints(ctx, await listWebhookEndpoints(await ctx.api()));
}
