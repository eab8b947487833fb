// `credentials watch ID`: each status change with a timestamp, until a final status or --until.
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import type { Context } from '../../context.js';
import { FlowFailedError, InterruptedError, UsageError } from '../../errors.js';
import { singleLine, stripControl } from '../../output/sanitize.js';
import { CREDENTIALS_STATUSES, FINAL_STATUSES, type Credentials } from '../../api/credentials.js';
import { examples, parseIntArg, type Run } from '../util.js';

export interface WatchOptions {
  id: string;
  until?: string;
  timeoutMs: number;
  pollMs: number;
}

export function newCmdWatch(parent: Command, ctx: Context, run: Run<WatchOptions> = watchRun): Command {
  const cmd = parent
    .command('watch')
    .description('print each status change of credentials with a timestamp, until a final status or --until STATUS')
    .argument('<id>', 'credentials id')
    .option('--until <status>', 'stop (exit 0) when this status is reached')
    .option(
      '--wait-timeout <seconds>',
      'give up (exit 9) after this long (default 300; `--timeout S` on the command line means the same, as before)',
    )
    .option('--poll-interval <ms>', 'polling interval', '500')
    .action(async (id: string, o: { until?: string; waitTimeout?: string; pollInterval: string }, command: Command) => {
      // --wait-timeout as every other waiting verb names it; the root's --timeout (per-request HTTP
      // timeout) typed on the command line is the watch's too, as this verb's own flag once was
      const typed = command.getOptionValueSourceWithGlobals('timeout') === 'cli' ? ctx.globals.timeout : undefined;
      const wait = o.waitTimeout ?? typed ?? '300';
      const until = o.until?.toUpperCase();
      // a status that does not exist would be waited for until the timeout
      if (until !== undefined && !(CREDENTIALS_STATUSES as readonly string[]).includes(until))
        throw new UsageError(`--until must be one of ${CREDENTIALS_STATUSES.join(', ')}, got "${o.until}"`);
      await run(ctx, {
        id,
        until,
        timeoutMs:
          parseIntArg(wait, o.waitTimeout !== undefined || typed === undefined ? '--wait-timeout' : '--timeout', {
            min: 1,
          })! * 1000,
        pollMs: parseIntArg(o.pollInterval, '--poll-interval', { min: 10, max: 60_000 })!,
      });
    });
  completeOption(cmd, '--until', () => CREDENTIALS_STATUSES);
  return examples(cmd, [
    'bankctl credentials watch 6e68cc6287704273984567b3300c5822',
    'bankctl credentials watch 6e68cc6287704273984567b3300c5822 --until AWAITING_SUPPLEMENTAL_INFORMATION --wait-timeout 60 -o ndjson',
  ]);
}

const payloadText = (c: Credentials) => (c.statusPayload ? `: ${stripControl(String(c.statusPayload))}` : '');

/** Whether the watch is over at this status: true when it ended well, an error when it ended badly. */
function ended(o: WatchOptions, c: Credentials, first: boolean): boolean {
  if (o.until && sameStatus(c.status, o.until)) return true;
  // a final status seen first is the previous refresh's: with --until, wait for the next
  if (!FINAL_STATUSES.has(c.status) || (first && o.until)) return false;
  if (o.until)
    throw new FlowFailedError(`credentials ${o.id} ended in ${c.status} before reaching ${o.until}${payloadText(c)}`);
  if (c.status !== 'UPDATED') throw new FlowFailedError(`credentials ${o.id} ended in ${c.status}${payloadText(c)}`);
  return true;
}

export async function watchRun(ctx: Context, o: WatchOptions): Promise<void> {
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
  // Ctrl-C ends the request in flight too: a service that does not answer held it for every retry
  const abort = new AbortController();
  const release = ctx.claimInterrupt(() => {
    stop = true;
    abort.abort(new InterruptedError(`stopped watching ${o.id}`));
    wake?.();
  });
  const started = ctx.clock.now();
  let lastKey = '';
  let first = true;
  let rows = 0;
  let failed = false;
  try {
    for (;;) {
      const c = await getCredentials(api, o.id, { signal: abort.signal });
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
            // one line a change, as a table row is: a bank's line break would fake a status line
            `${row.time}  ${singleLine(row.status)}${row.statusPayload ? `  ${singleLine(String(c.statusPayload))}` : ''}\n`,
          );
        else await out.write(row);
        rows++;
        if (ended(o, c, first)) return;
        if (first && o.until && FINAL_STATUSES.has(c.status))
          ctx.notice(
            `${c.status} is the last refresh's status; waiting for a new refresh to reach ${o.until} (\`bankctl credentials refresh${ctx.userFlag()} ${stripControl(o.id)}\` starts one)`,
          );
      }
      first = false;
      if (ctx.clock.now() - started > o.timeoutMs)
        throw new FlowFailedError(
          `credentials ${o.id} did not reach ${o.until ?? 'a final status'} within ${o.timeoutMs / 1000} s (status ${c.status})`,
        );
      await new Promise<void>((r) => {
        const t = setTimeout(r, o.pollMs);
        wake = () => {
          clearTimeout(t);
          r();
        };
      });
      if (stop) throw new InterruptedError(`stopped watching ${o.id}`);
    }
  } catch (err) {
    failed = true;
    if (stop && !(err instanceof InterruptedError)) throw new InterruptedError(`stopped watching ${o.id}`);
    throw err;
  } finally {
    release();
    // a failure before any row (unknown credentials) prints nothing on stdout, not an empty list
    if (!lines && (rows > 0 || !failed)) await out.end();
  }
}

/** The spec's AWAITING_MOBILE_EID_AUTHENTICATION is the service's AWAITING_MOBILE_BANKID_AUTHENTICATION. */
function sameStatus(status: string, wanted: string): boolean {
  const norm = (x: string) => x.replace('AWAITING_MOBILE_EID_', 'AWAITING_MOBILE_BANKID_');
  return norm(status) === norm(wanted);
}
