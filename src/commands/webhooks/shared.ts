// What the webhooks commands share (and `connector webhooks`): event names, the secret's sources,
// the flags of a registration, and columns without the secret.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { V2_EVENTS, WEBHOOK_EVENTS } from '../../api/webhooks.js';
import type { Column } from '../../output/render.js';
import { collect, splitList } from '../util.js';

export const SECRET_ENV = 'BANKCTL_WEBHOOK_SECRET';

/** --event values (repeatable or comma-separated), checked against the five v1 events (and the v2 ones with `kinds`). */
export function parseEvents(values: string[] | undefined, kinds: 'v1' | 'v2' | 'both' = 'v1'): string[] {
  const events = [...new Set(splitList(values, '--event'))];
  const known: readonly string[] =
    kinds === 'v1' ? WEBHOOK_EVENTS : kinds === 'v2' ? V2_EVENTS : [...WEBHOOK_EVENTS, ...V2_EVENTS];
  for (const e of events) {
    if (!known.includes(e)) {
      const v2 = kinds === 'v1' && (V2_EVENTS as readonly string[]).includes(e);
      const v1 = kinds === 'v2' && (WEBHOOK_EVENTS as readonly string[]).includes(e);
      throw new UsageError(`--event: unknown event "${e}"`, {
        hint: v2
          ? `${e} is an Events v2 event: register it with \`bankctl webhooks endpoints create\``
          : v1
            ? `${e} is a v1 event: register it with \`bankctl webhooks create\` (or \`connector webhooks create\`); Events v2 names: ${known.join(', ')}`
            : `use ${known.join(', ')}`,
      });
    }
  }
  return events;
}

/** The profile setting that keeps an Events v2 endpoint's secret (`webhooks endpoints create --save-secret`). */
export const SECRET_SETTING = 'webhook-secret';

export interface SecretOpts {
  secret?: string;
  secretStdin?: boolean;
}

/** The webhook secret from --secret, --secret-stdin or BANKCTL_WEBHOOK_SECRET; never echoed. */
export async function readSecret(ctx: Context, o: SecretOpts): Promise<string | undefined> {
  if (o.secret !== undefined && o.secretStdin) throw new UsageError('give --secret or --secret-stdin, not both');
  if (o.secretStdin && ctx.globals.clientSecretStdin)
    throw new UsageError('--secret-stdin and --client-secret-stdin cannot both read standard input', {
      hint: `give the webhook secret in ${SECRET_ENV}`,
    });
  let secret: string | undefined;
  if (o.secretStdin) {
    let data = '';
    for await (const chunk of ctx.io.stdin) {
      data += chunk.toString();
      if (data.length > 64 * 1024) break;
    }
    secret = data.split(/\r?\n/)[0]!.trim();
    if (!secret) throw new UsageError('--secret-stdin: nothing was read from standard input');
  } else if (o.secret !== undefined) {
    secret = o.secret;
    if (!ctx.quiet)
      ctx.warn(
        `--secret on the command line is visible to other users in the process list; use --secret-stdin or ${SECRET_ENV} instead`,
      );
  } else if (ctx.env[SECRET_ENV]) secret = ctx.env[SECRET_ENV];
  if (secret !== undefined && secret === '') throw new UsageError('--secret must not be empty');
  return secret;
}

/** Table and csv never show the secret, whatever --fields says. */
export function withoutSecret<T extends Record<string, unknown>>(item: T): Omit<T, 'secret'> {
  const { secret: _secret, ...rest } = item;
  return rest;
}

export const HOOK_COLUMNS: Column[] = [
  { header: 'id', path: 'id' },
  { header: 'url', path: 'url' },
  { header: 'events', path: 'events', format: (v) => (Array.isArray(v) ? v.join(', ') : '') },
];

export const API_HOOK_COLUMNS: Column[] = [
  ...HOOK_COLUMNS,
  { header: 'for', path: 'userId', format: (v) => (typeof v === 'string' && v ? `user ${v}` : 'all users') },
];

/** Renders hooks: json/ndjson as returned; table and csv without the secret. */
export async function renderHooks(
  ctx: Context,
  data: Record<string, unknown>[] | Record<string, unknown>,
  columns: Column[],
): Promise<void> {
  const { render } = await import('../../output/render.js');
  const format = await ctx.outputFormat();
  if (format === 'json' || format === 'ndjson') return render(ctx, data);
  const safe = Array.isArray(data) ? data.map(withoutSecret) : withoutSecret(data);
  if (Array.isArray(safe) && safe.length === 0 && format === 'table') {
    ctx.notice('no webhooks registered');
    return;
  }
  return render(ctx, safe, { columns, vertical: false });
}

export interface CreateFlags extends SecretOpts {
  url: string;
  event?: string[];
}

export function addCreateFlags(cmd: Command): Command {
  return cmd
    .requiredOption('--url <url>', 'where the service POSTs events (https; http only for loopback addresses)')
    .option('--event <name>', 'an event to receive (repeatable, or comma-separated)', collect)
    .option(
      '--secret <secret>',
      `the secret the service sends back in webhook.secret (prefer --secret-stdin or ${SECRET_ENV})`,
    )
    .option('--secret-stdin', 'read the secret from the first line of standard input');
}

export interface Registration {
  url: string;
  secret: string;
  events: string[];
}

/** Checks --url and --event and reads the secret: what both create commands need. */
export async function registrationFromFlags(ctx: Context, o: CreateFlags): Promise<Registration> {
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    throw new UsageError(`--url: "${o.url}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError('--url must be an https URL (http only for loopback addresses)');
  const events = parseEvents(o.event);
  if (events.length === 0)
    throw new UsageError('--event is required: give one or more event names', {
      hint: 'e.g. --event credentials:update --event transaction:create',
    });
  const secret = await readSecret(ctx, o);
  if (!secret) throw new UsageError(`a secret is required: --secret-stdin, ${SECRET_ENV} or --secret`);
  (await ctx.http()).redactor.add(secret);
  return { url: o.url, secret, events };
}
