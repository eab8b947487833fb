// `webhooks deliveries [--event E] [--status delivered|failed|pending] [--endpoint ID]`: the
// sandbox's webhook deliveries (v1 and Events v2), oldest first: event, endpoint URL, attempts, the
// last status code, the next retry. Sandbox only (GET /sandbox/webhooks/deliveries).
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import type { Context } from '../../context.js';
import { listDeliveries } from '../../api/webhooks.js';
import { UsageError } from '../../errors.js';
import { examples, type Run } from '../util.js';
import { parseEvents } from './shared.js';
import { sandboxOnly } from './sandbox-only.js';

export const DELIVERY_STATUSES = ['delivered', 'failed', 'pending'] as const;

export interface DeliveriesOptions {
  event?: string;
  status?: (typeof DELIVERY_STATUSES)[number];
  endpoint?: string;
}

export const DELIVERY_COLUMNS = [
  { header: 'id', path: 'id' },
  { header: 'event', path: 'event' },
  { header: 'endpoint', path: 'url' },
  { header: 'status', path: 'status' },
  { header: 'attempts', path: 'attempts' },
  {
    header: 'last',
    path: 'lastStatusCode',
    format: (v: unknown, d: unknown) =>
      v !== undefined && v !== null ? String(v) : String((d as { lastError?: string }).lastError ?? ''),
  },
  { header: 'next retry', path: 'nextRetryAt' },
];

export function newCmdDeliveries(parent: Command, ctx: Context, run: Run<DeliveriesOptions> = deliveriesRun): Command {
  const cmd = parent
    .command('deliveries')
    .description("list the sandbox's webhook deliveries (v1 and Events v2) with their attempts; sandbox only")
    .option('--event <name>', 'only deliveries of this event (a v1 or Events v2 name)')
    .option('--status <status>', `only deliveries in this state: ${DELIVERY_STATUSES.join(', ')}`)
    .option('--endpoint <id>', 'only deliveries to this registration (a webhook or webhook endpoint id)')
    .action(async (o: { event?: string; status?: string; endpoint?: string }) => {
      if (o.event !== undefined) parseEvents([o.event], 'both');
      if (o.status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(o.status))
        throw new UsageError(`--status must be one of ${DELIVERY_STATUSES.join(', ')}, got "${o.status}"`);
      if (o.endpoint !== undefined && o.endpoint.trim() === '') throw new UsageError('--endpoint must not be empty');
      await run(ctx, { event: o.event, status: o.status as DeliveriesOptions['status'], endpoint: o.endpoint });
    });
  completeOption(cmd, '--status', () => DELIVERY_STATUSES);
  return examples(cmd, [
    'bankctl webhooks deliveries',
    'bankctl webhooks deliveries --status failed --event refresh:finished',
    'bankctl webhooks deliveries --endpoint d8f37f7d19c240abb4ef5d5dbebae4ef -o json | jq ".[] | {id, attempts, lastStatusCode}"',
  ]);
}

export async function deliveriesRun(ctx: Context, o: DeliveriesOptions): Promise<void> {
  const list = await sandboxOnly(ctx, 'webhooks deliveries', async () => listDeliveries(await ctx.api(), o));
  const format = await ctx.outputFormat();
  if (list.length === 0 && format === 'table') {
    ctx.notice('no deliveries');
    return;
  }
  const { render } = await import('../../output/render.js');
  await render(ctx, list, { columns: DELIVERY_COLUMNS });
}
