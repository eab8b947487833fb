// `webhooks resend DELIVERY_ID`: the sandbox delivers a recorded delivery again, as a new delivery
// with the same body (Events v2: a fresh signature). Sandbox only
// (POST /sandbox/webhooks/deliveries/{id}/resend).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { resendDelivery } from '../../api/webhooks.js';
import { examples, type Run } from '../util.js';
import { DELIVERY_COLUMNS } from './deliveries.js';
import { sandboxOnly } from './sandbox-only.js';

export interface ResendOptions {
  id: string;
}

export function newCmdResend(parent: Command, ctx: Context, run: Run<ResendOptions> = resendRun): Command {
  const cmd = parent
    .command('resend')
    .argument('<delivery-id>', 'the delivery (from `bankctl webhooks deliveries`)')
    .description('deliver a recorded webhook delivery again (same body, a fresh v2 signature); sandbox only')
    .action(async (id: string) => run(ctx, { id }));
  return examples(cmd, [
    'bankctl webhooks resend 0c4f6f3f8e5a4d0f9d7b2a1c3e5f7a9b',
    'bankctl webhooks deliveries --status failed -o json | jq -r ".[].id" | xargs -r -n1 bankctl webhooks resend',
  ]);
}

export async function resendRun(ctx: Context, o: ResendOptions): Promise<void> {
  const d = await sandboxOnly(
    ctx,
    'webhooks resend',
    async () => resendDelivery(await ctx.api(), o.id),
    (message) => /^delivery .* not found/.test(message),
  );
  ctx.notice(`resending delivery ${o.id} as ${d.id} (${d.event} to ${d.url})`);
  const { render } = await import('../../output/render.js');
  await render(ctx, d, { columns: DELIVERY_COLUMNS, vertical: true });
}
