// `connector webhooks list`: the webhooks registered through the connector.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { listConnectorWebhooks } from '../../../api/webhooks.js';
import { examples, type Run } from '../../util.js';
import { HOOK_COLUMNS, renderHooks } from '../../webhooks/shared.js';

export type ListOptions = Record<string, never>;

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description('list the registered webhooks (GET /connector/webhooks)')
    .action(async () => run(ctx, {}));
  return examples(cmd, ['bankctl connector webhooks list', 'bankctl connector webhooks list -o json']);
}

export async function listRun(ctx: Context): Promise<void> {
  await renderHooks(ctx, await listConnectorWebhooks(await ctx.api()), HOOK_COLUMNS);
}
