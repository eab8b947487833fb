// `webhooks endpoints get ID`: one Events v2 endpoint. The reference has no GET of one endpoint, so
// it is found in the list; exit 4 when there is none.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { listWebhookEndpoints } from '../../../api/webhooks.js';
import { NotFoundError } from '../../../errors.js';
import { examples, type Run } from '../../util.js';
import { renderEndpoints } from './shared.js';

export interface GetOptions {
  id: string;
}

export function newCmdGet(parent: Command, ctx: Context, run: Run<GetOptions> = getRun): Command {
  const cmd = parent
    .command('get')
    .argument('<id>', 'the endpoint id (from `bankctl webhooks endpoints list`)')
    .description('show one Events v2 webhook endpoint (found in GET /events/v2/webhook-endpoints)')
    .action(async (id: string) => run(ctx, { id }));
  return examples(cmd, ['bankctl webhooks endpoints get d8f37f7d19c240abb4ef5d5dbebae4ef -o json']);
}

export async function getRun(ctx: Context, o: GetOptions): Promise<void> {
  const found = (await listWebhookEndpoints(await ctx.api())).find((e) => e.id === o.id);
  if (!found) throw new NotFoundError(`no webhook endpoint ${o.id}`, { hint: 'see `bankctl webhooks endpoints list`' });
  await renderEndpoints(ctx, found, { vertical: true });
}
