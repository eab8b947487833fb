// `sandbox clock show|advance|set`: the sandbox's clock, which everything in it reads: token and
// session expiry, consents, pending-to-booked, budget and calendar periods, insights, and the
// credentials status machine's waits (a jump fires the waits that came due).
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { parseDuration, parseTime } from '../../../contract/duration.js';
import { render } from '../../../output/render.js';
import { examples, type Run } from '../../util.js';
import { sandboxApi } from '../shared.js';

export interface ClockOptions {
  action: 'show' | 'advance' | 'set';
  advanceMs?: number;
  time?: string;
}

const COLUMNS = [
  { header: 'now', path: 'now' },
  { header: 'offset', path: 'offset' },
];

export function newCmdClock(parent: Command, ctx: Context, run: Run<ClockOptions> = clockRun): Command {
  const clock = parent.command('clock').description("the sandbox's clock: show it, move it forward, or set it");
  const show = clock
    .command('show')
    .description('print the time the sandbox runs at')
    .action(async () => run(ctx, { action: 'show' }));
  examples(show, ['bankctl sandbox clock show', 'bankctl sandbox clock show -o json | jq -r .now']);
  const advance = clock
    .command('advance')
    .argument('<duration>', 'how far: 90s, 15m, 2h, 3d, 1w, or combined like 1d12h')
    .description('move the clock forward; waits that came due (eID, app, supplemental timeouts) end at once')
    .action(async (duration: string) => {
      // `advance -- -1d`: a duration backwards was "not a duration"
      if (/^-/.test(duration) && parseDuration(duration.slice(1)) !== undefined) throw backwards(duration);
      const ms = parseDuration(duration);
      if (ms === undefined)
        throw new UsageError(`"${duration}" is not a duration`, { hint: 'use e.g. 90s, 15m, 2h, 3d, 1w or 1d12h' });
      await run(ctx, { action: 'advance', advanceMs: ms });
    });
  // `advance -1d` reads as an option to commander: "unknown option '-1d'", about a flag no one meant
  const own = advance as unknown as { unknownOption?: (flag: string) => void };
  const unknownOption = own.unknownOption?.bind(advance);
  if (unknownOption)
    own.unknownOption = (flag) => {
      if (parseDuration(flag.slice(1)) !== undefined) throw backwards(flag);
      unknownOption(flag);
    };
  examples(advance, [
    'bankctl sandbox clock advance 2h',
    "bankctl sandbox clock advance 91d   # past a consent's 90 days",
  ]);
  const set = clock
    .command('set')
    .argument('<time>', 'ISO 8601: 2026-03-01 or 2026-03-01T09:30:00Z (UTC unless an offset is given)')
    .description('set the clock to a time (it keeps running from there); earlier than now is allowed')
    .action(async (time: string) => {
      if (parseTime(time) === undefined)
        throw new UsageError(`"${time}" is not a time`, {
          hint: 'use ISO 8601, e.g. 2026-03-01 or 2026-03-01T09:30:00Z',
        });
      await run(ctx, { action: 'set', time });
    });
  examples(set, ['bankctl sandbox clock set 2026-12-31T23:59:00Z', 'bankctl sandbox start --clock 2026-01-15']);
  return clock;
}

/** `advance -1d`: the command only moves the clock forward; `set` moves it back. */
function backwards(duration: string): UsageError {
  return new UsageError(`\`sandbox clock advance\` moves the clock forward only: ${duration} would move it back`, {
    hint: '`bankctl sandbox clock set TIME` sets an earlier time, e.g. 2026-03-01T09:30:00Z',
  });
}

function human(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  let s = Math.round(Math.abs(ms) / 1000);
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  return `${sign}${d ? `${d}d` : ''}${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s || (!d && !h && !m) ? `${s}s` : ''}`;
}

export async function clockRun(ctx: Context, o: ClockOptions): Promise<void> {
  const api = await sandboxApi(ctx, '`sandbox clock`');
  const { getClock, setClock } = await import('../../../api/sandbox.js');
  // an advance moves the clock by what it says, a set by the difference of the offsets
  const before = o.action === 'set' ? (await getClock(api)).offsetMs : undefined;
  const c =
    o.action === 'show'
      ? await getClock(api)
      : await setClock(api, o.action === 'advance' ? { advanceMs: o.advanceMs } : { time: o.time });
  if (o.action !== 'show') await shiftCachedTokens(ctx, before === undefined ? o.advanceMs! : c.offsetMs - before);
  await render(ctx, { ...c, offset: human(c.offsetMs) }, { columns: COLUMNS });
}

/**
 * The sandbox judges a token's expiry by its own clock, the token cache by the real one: after the
 * clock moved by `deltaMs`, every cached token of this sandbox (in every profile) ends that much
 * earlier in real time, or `$(bankctl auth token)` would hand out a token the sandbox refuses.
 */
async function shiftCachedTokens(ctx: Context, deltaMs: number): Promise<void> {
  if (!Number.isFinite(deltaMs) || deltaMs === 0) return;
  const baseUrl = await ctx.baseUrl();
  (await ctx.config()).updateTokensOf(baseUrl, (t) => ({
    ...t,
    expiresAt: t.expiresAt - deltaMs,
    ...(t.refreshExpiresAt === undefined ? {} : { refreshExpiresAt: t.refreshExpiresAt - deltaMs }),
  }));
}
