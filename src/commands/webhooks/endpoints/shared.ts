// What the `webhooks endpoints` verbs share: the columns (never the secret) and the --event check.
import type { Context } from '../../../context.js';
import type { WebhookEndpoint } from '../../../api/webhooks.js';
import { UsageError } from '../../../errors.js';
import type { Column } from '../../../output/render.js';
import { parseEvents } from '../shared.js';
import { V2_WEBHOOK_ENDPOINT_FIELDS } from '../../../contract/item-fields.js';

export const ENDPOINT_COLUMNS: Column[] = [
  { header: 'id', path: 'id' },
  { header: 'url', path: 'url' },
  { header: 'events', path: 'enabledEvents', format: (v) => (Array.isArray(v) ? v.join(', ') : '') },
  { header: 'disabled', path: 'disabled', format: (v) => (v === true ? 'yes' : 'no') },
  { header: 'description', path: 'description' },
];

/** --event for Events v2: at least one of the six names. */
export function v2Events(values: string[] | undefined, required: boolean): string[] | undefined {
  const events = parseEvents(values, 'v2');
  if (events.length === 0) {
    if (!required) return undefined;
    throw new UsageError('--event is required: give one or more Events v2 event names', {
      hint: 'e.g. --event refresh:finished --event account-transactions:modified',
    });
  }
  return events;
}

/** An https URL (http is accepted by the sandbox on loopback addresses only; the service says no). */
export function endpointUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--url: "${raw}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError('--url must be an https URL (http only for loopback addresses, in the sandbox)');
  return raw;
}

/** Renders endpoints: table and csv without the secret; json/ndjson as the service answered. */
export async function renderEndpoints(
  ctx: Context,
  data: WebhookEndpoint[] | WebhookEndpoint,
  o: { keepSecret?: boolean; vertical?: boolean } = {},
): Promise<void> {
  const { render } = await import('../../../output/render.js');
  const format = await ctx.outputFormat();
  const strip = (e: WebhookEndpoint) => {
    if (o.keepSecret) return e;
    const { secret: _s, ...rest } = e;
    return rest;
  };
  const shown = Array.isArray(data) ? data.map(strip) : strip(data);
  // the secret is not shown (but by create): then it is not a field --fields may ask for
  const declared = o.keepSecret ? V2_WEBHOOK_ENDPOINT_FIELDS : V2_WEBHOOK_ENDPOINT_FIELDS.filter((f) => f !== 'secret');
  if (format === 'json' || format === 'ndjson') return render(ctx, shown, { declared });
  if (Array.isArray(data) && data.length === 0 && format === 'table') {
    ctx.notice('no webhook endpoints registered');
    return;
  }
  const columns = o.keepSecret ? [...ENDPOINT_COLUMNS, { header: 'secret', path: 'secret' }] : ENDPOINT_COLUMNS;
  return render(ctx, shown, { columns, declared, vertical: o.vertical ?? false });
}
