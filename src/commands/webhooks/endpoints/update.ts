// `webhooks endpoints update ID [--url U] [--event E ...] [--description D] [--enable|--disable]`:
// PATCH /events/v2/webhook-endpoints/{id} with {webhookEndpoint: {...}}; --event replaces the set.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { updateWebhookEndpoint, type EndpointChanges } from '../../../api/webhooks.js';
import { UsageError } from '../../../errors.js';
import { collect, examples, type Run } from '../../util.js';
import { endpointUrl, renderEndpoints, v2Events } from './shared.js';

export interface UpdateOptions {
  id: string;
  changes: EndpointChanges;
}

interface Flags {
  url?: string;
  event?: string[];
  description?: string;
  enable?: boolean;
  disable?: boolean;
}

export function newCmdUpdate(parent: Command, ctx: Context, run: Run<UpdateOptions> = updateRun): Command {
  const cmd = parent
    .command('update')
    .argument('<id>', 'the endpoint id (from `bankctl webhooks endpoints list`)')
    .description('change an Events v2 webhook endpoint (PATCH /events/v2/webhook-endpoints/{id})')
    .option('--url <url>', 'a new URL')
    .option('--event <name>', 'the events it receives from now on (repeatable, or comma-separated)', collect)
    .option('--description <text>', 'a new description')
    .option('--enable', 'deliver to it again')
    .option('--disable', 'stop delivering to it (it stays registered)')
    .action(async (id: string, o: Flags) => {
      if (o.enable && o.disable) throw new UsageError('give --enable or --disable, not both');
      const changes: EndpointChanges = {};
      if (o.url !== undefined) changes.url = endpointUrl(o.url);
      const events = v2Events(o.event, false);
      if (events) changes.enabledEvents = events;
      if (o.description !== undefined) changes.description = o.description;
      if (o.enable || o.disable) changes.disabled = Boolean(o.disable);
      if (Object.keys(changes).length === 0)
        throw new UsageError('nothing to change: give --url, --event, --description, --enable or --disable');
      await run(ctx, { id, changes });
    });
  return examples(cmd, [
    'bankctl webhooks endpoints update d8f37f7d19c240abb4ef5d5dbebae4ef --event refresh:finished --event account:updated',
    'bankctl webhooks endpoints update d8f37f7d19c240abb4ef5d5dbebae4ef --disable',
  ]);
}

export async function updateRun(ctx: Context, o: UpdateOptions): Promise<void> {
  const updated = await updateWebhookEndpoint(await ctx.api(), o.id, o.changes);
  ctx.notice(`updated webhook endpoint ${o.id}`);
  await renderEndpoints(ctx, updated, { vertical: true });
}
