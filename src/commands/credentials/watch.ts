import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { FlowFailedError, InterruptedError } from '../../errors.js';
import { stripControl } from '../../output/sanitize.js';
import { FAILED_STATUSES } from '../../api/credentials.js';
import { examples, parseIntArg } from '../util.js';

const FINAL = new Set(['UPDATED', ...FAILED_STATUSES]);

export function registerCredentialsWatch(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('watch')
    .description('print each status change of credentials with a timestamp, until a final status or --until STATUS')
    .argument('<id>', 'credentials id')
    .option('--until <status>', 'stop (exit 0) when this status is reached')
    .option('--timeout <seconds>', 'give up (exit 9) after this long', '300')
    .option('--poll-interval <ms>', 'polling interval', '500')
    .action(async (id: string, o: { until?: string; timeout: string; pollInterval: string }) => {
      const timeoutMs = parseIntArg(o.timeout, '--timeout', { min: 1 })! * 1000;
      const pollMs = parseIntArg(o.pollInterval, '--poll-interval', { min: 10, max: 60_000 })!;
      const until = o.until?.toUpperCase();
      const api = await ctx.api();
      const { getCredentials } = await import('../../api/credentials.js');
      const { StreamWriter } = await import('../../output/render.js');
      const format = await ctx.outputFormat();
      // a table would wait for the end: on a terminal each change is one line as it happens
      const lines = format === 'table' && !ctx.globals.fields;
      const out = new StreamWriter(ctx, format, {
        columns: [
          { header: 'time', path: 'time' },
          { header: 'status', path: 'status' },
          { header: 'statusPayload', path: 'statusPayload' },
        ],
      });
      let stop = false;
      let wake: (() => void) | undefined;
      const release = ctx.claimInterrupt(() => {
        stop = true;
        wake?.();
      });
      const started = ctx.clock.now();
      let lastKey = '';
      let first = true;
      try {
        for (;;) {
          const c = await getCredentials(api, id);
          const key = `${c.status}|${c.statusUpdated ?? ''}|${c.statusPayload ?? ''}`;
          if (key !== lastKey) {
            lastKey = key;
            const stamp = typeof c.statusUpdated === 'number' ? c.statusUpdated : ctx.clock.now();
            const row = {
              time: new Date(stamp).toISOString(),
              status: c.status,
              statusUpdated: c.statusUpdated ?? null,
              statusPayload: stripControl(String(c.statusPayload ?? '')),
            };
            if (lines)
              ctx.io.stdout.write(
                `${row.time}  ${stripControl(row.status)}${row.statusPayload ? `  ${row.statusPayload}` : ''}\n`,
              );
            else await out.write(row);
            if (until && c.status === until) return;
            // a final status seen first is the previous refresh's: with --until, wait for the next
            if (FINAL.has(c.status) && !(first && until)) {
              if (until)
                throw new FlowFailedError(
                  `credentials ${id} ended in ${c.status} before reaching ${until}${c.statusPayload ? `: ${stripControl(String(c.statusPayload))}` : ''}`,
                );
              if (c.status !== 'UPDATED')
                throw new FlowFailedError(
                  `credentials ${id} ended in ${c.status}${c.statusPayload ? `: ${stripControl(String(c.statusPayload))}` : ''}`,
                );
              return;
            }
          }
          first = false;
          if (ctx.clock.now() - started > timeoutMs)
            throw new FlowFailedError(
              `credentials ${id} did not reach ${until ?? 'a final status'} within ${o.timeout} s (status ${c.status})`,
            );
          await new Promise<void>((r) => {
            const t = setTimeout(r, pollMs);
            wake = () => {
              clearTimeout(t);
              r();
            };
          });
          if (stop) throw new InterruptedError(`stopped watching ${id}`);
        }
      } finally {
        release();
        if (!lines) await out.end();
      }
    });
  examples(cmd, [
    'bankctl credentials watch 6e68cc6287704273984567b3300c5822',
    'bankctl credentials watch 6e68cc6287704273984567b3300c5822 --until AWAITING_SUPPLEMENTAL_INFORMATION --timeout 60 -o ndjson',
  ]);
}
