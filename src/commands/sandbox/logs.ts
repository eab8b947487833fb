// `sandbox logs`: the requests the sandbox served, one line each, filtered; --follow streams new
// ones until Ctrl-C (exit 130) or --wait-timeout.
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import type { Context } from '../../context.js';
import { InterruptedError, UsageError } from '../../errors.js';
import { parseDuration } from '../../contract/duration.js';
import { stripControl } from '../../output/sanitize.js';
import { examples, parseIntArg, type Run } from '../util.js';
import { sandboxApi } from './shared.js';
import type { LogEntry } from '../../api/sandbox.js';

export interface LogsOptions {
  follow: boolean;
  status?: string;
  method?: string;
  path?: string;
  user?: string;
  since?: string;
  limit: number;
  waitTimeoutMs?: number;
  pollMs: number;
}

interface Flags {
  follow?: boolean;
  status?: string;
  method?: string;
  path?: string;
  since?: string;
  limit: string;
  waitTimeout?: string;
  pollInterval: string;
}

export function newCmdLogs(parent: Command, ctx: Context, run: Run<LogsOptions> = logsRun): Command {
  const cmd = parent
    .command('logs')
    .description(
      'the requests the sandbox served: time, method, path, status, latency, token kind and scopes, user, request id ' +
        '(bodies too when it was started with --bodies; secrets never)',
    )
    .option('--follow', 'keep printing new requests until Ctrl-C (exit 130) or --wait-timeout')
    .option('--status <s>', 'only these: a class (1xx to 5xx, e.g. 4xx) or a code such as 404')
    .option('--method <m>', 'only this HTTP method')
    .option('--path <glob>', 'only paths matching this glob (* any characters), e.g. "/data/v2/*"')
    .option('--since <duration>', 'only the last 90s, 5m, 2h... (by the sandbox clock)')
    .option('--limit <n>', 'at most this many of the newest (without --follow)', '1000')
    .option('--wait-timeout <seconds>', 'with --follow: stop (exit 0) after this long')
    .option('--poll-interval <ms>', 'with --follow: how often to ask', '250')
    .action(async (o: Flags) => {
      if (o.status && !/^([1-5]xx|[1-5]\d\d)$/i.test(o.status))
        throw new UsageError(`--status must be a class 1xx to 5xx (e.g. 4xx) or a code such as 404, got "${o.status}"`);
      if (o.method && !/^[A-Za-z]{1,10}$/.test(o.method))
        throw new UsageError(`--method "${o.method}" is not an HTTP method`);
      if (o.since && parseDuration(o.since) === undefined)
        throw new UsageError(`--since "${o.since}" is not a duration`, { hint: 'use e.g. 90s, 5m, 2h or 1d' });
      if (o.waitTimeout && !o.follow) throw new UsageError('--wait-timeout goes with --follow');
      // --user is the global acting-user flag: here it filters (a user id or external id); a user
      // from the profile or the environment does not: the log shows every request unless asked
      const ref = ctx.globals.user
        ? { userId: ctx.globals.user }
        : ctx.globals.externalUser
          ? { externalUserId: ctx.globals.externalUser }
          : undefined;
      await run(ctx, {
        follow: Boolean(o.follow),
        status: o.status?.toLowerCase(),
        method: o.method?.toUpperCase(),
        path: o.path,
        user: ref?.userId ?? ref?.externalUserId,
        since: o.since,
        limit: parseIntArg(o.limit, '--limit', { min: 1, max: 10_000 })!,
        waitTimeoutMs: o.waitTimeout ? parseIntArg(o.waitTimeout, '--wait-timeout', { min: 1 })! * 1000 : undefined,
        pollMs: parseIntArg(o.pollInterval, '--poll-interval', { min: 20, max: 60_000 })!,
      });
    });
  completeOption(cmd, '--status', () => ['1xx', '2xx', '3xx', '4xx', '5xx']);
  completeOption(cmd, '--method', () => ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
  return examples(cmd, [
    'bankctl sandbox logs --status 4xx --since 10m',
    'bankctl sandbox logs --path "/data/v2/*" --user $USER_ID -o json | jq ".[].latencyMs"',
    'bankctl sandbox logs --follow -o ndjson > requests.ndjson',
  ]);
}

function line(e: LogEntry): string {
  const who = e.tokenKind === 'none' ? '-' : `${e.tokenKind}${e.scopes.length ? `[${e.scopes.join(',')}]` : ''}`;
  const parts = [
    new Date(e.time).toISOString(),
    e.method.padEnd(6),
    String(e.status),
    `${e.latencyMs.toFixed(1)}ms`.padStart(8),
    e.path,
    who,
    e.userId ? `user=${e.userId}` : '',
    `id=${e.requestId}`,
  ];
  let out = stripControl(parts.filter(Boolean).join('  '));
  if (e.requestBody) out += `\n    > ${stripControl(e.requestBody)}`;
  if (e.responseBody) out += `\n    < ${stripControl(e.responseBody)}`;
  return `${out}\n`;
}

export async function logsRun(ctx: Context, o: LogsOptions): Promise<void> {
  const api = await sandboxApi(ctx, '`sandbox logs`');
  const { readLogs } = await import('../../api/sandbox.js');
  const format = await ctx.outputFormat();
  const query = { status: o.status, method: o.method, path: o.path, user: o.user, since: o.since };
  const first = await readLogs(api, { ...query, limit: String(o.limit) });
  if (!o.follow && format === 'json') {
    const { render } = await import('../../output/render.js');
    await render(ctx, first.entries);
    return;
  }
  const { writeJson } = await import('../../contract/exact-json.js');
  // csv and ndjson go through the output layer (a header, --fields, --jq); json with --follow is one
  // object a line as before, and a table the text lines
  const { StreamWriter } = await import('../../output/render.js');
  const writer =
    format === 'csv' || format === 'ndjson'
      ? new StreamWriter(ctx, format, {
          columns: ['time', 'method', 'status', 'latencyMs', 'path', 'tokenKind', 'scopes', 'userId', 'requestId'].map(
            (k) => ({
              header: k,
              path: k,
              ...(k === 'time' ? { format: (v: unknown) => new Date(Number(v)).toISOString() } : {}),
            }),
          ),
        })
      : undefined;
  const emit = async (entries: LogEntry[]): Promise<void> => {
    if (writer) return writer.writeMany(entries);
    for (const e of entries) ctx.io.stdout.write(format === 'json' ? `${writeJson(e)}\n` : line(e));
  };
  if (first.dropped > 0 && o.follow) ctx.warn(`${first.dropped} older requests were dropped from the sandbox's log`);
  await emit(first.entries);
  // an empty screen could be a filter that matched nothing or a hang: a person is told (as render does)
  if (!o.follow && first.entries.length === 0 && !writer && ctx.io.stdoutIsTTY) ctx.notice('no results');
  if (!o.follow) return void (await writer?.end());
  let last = first.last;
  let stop = false;
  let wake: (() => void) | undefined;
  const release = ctx.claimInterrupt(() => {
    stop = true;
    wake?.();
  });
  const started = Date.now();
  try {
    for (;;) {
      await new Promise<void>((r) => {
        const t = setTimeout(r, o.pollMs);
        wake = () => {
          clearTimeout(t);
          r();
        };
      });
      if (stop) throw new InterruptedError('stopped following the sandbox log');
      if (o.waitTimeoutMs !== undefined && Date.now() - started >= o.waitTimeoutMs) return;
      const next = await readLogs(api, { ...query, after: String(last), limit: '10000' });
      // a reset emptied the log: start again from its beginning
      if (next.last < last) {
        last = 0;
        continue;
      }
      if (next.dropped > 0) ctx.warn(`${next.dropped} requests went by faster than this follower read them`);
      await emit(next.entries);
      last = next.last;
    }
  } finally {
    release();
    await writer?.end();
  }
}
