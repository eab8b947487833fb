import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { createHook } from '../../api/webhooks.js';
import { UsageError } from '../../errors.js';
import { collect, examples } from '../util.js';
import { API_HOOK_COLUMNS, parseEvents, readSecret, renderHooks, SECRET_ENV, type SecretOpts } from './shared.js';

export interface CreateOpts extends SecretOpts {
  url: string;
  event?: string[];
}

/** Checks --url and --event and reads the secret: what both create commands need. */
export async function registrationFromFlags(
  ctx: Context,
  o: CreateOpts,
): Promise<{ url: string; secret: string; events: string[] }> {
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

export function addCreateFlags(cmd: Command): Command {
  return cmd
    .requiredOption('--url <url>', 'where the service POSTs events (https; http only for loopback addresses)')
    .option('--event <name>', 'an event to receive (repeatable, or comma-separated)', collect)
    .option(
      '--secret <secret>',
      `the secret the service sends back in webHook.secret (prefer --secret-stdin or ${SECRET_ENV})`,
    )
    .option('--secret-stdin', 'read the secret from the first line of standard input');
}

export function registerWebhooksCreate(parent: Command, ctx: Context): void {
  const cmd = addCreateFlags(
    parent
      .command('create')
      .description(
        'register a webhook through the API (POST /api/v1/hooks, scope user:web_hooks); with --user for that user only',
      ),
  ).action(async (o: CreateOpts) => {
    const reg = await registrationFromFlags(ctx, o);
    const api = await ctx.api();
    const created = await createHook(api, reg);
    ctx.notice(`registered webhook ${created.id ?? ''} for ${reg.events.join(', ')}`);
    await renderHooks(ctx, created, API_HOOK_COLUMNS);
  });
  examples(cmd, [
    'echo "$SECRET" | bankctl webhooks create --url https://hooks.example.com/in --event credentials:update --event transaction:create --secret-stdin',
    'BANKCTL_WEBHOOK_SECRET=s3cr3t bankctl webhooks create --url https://hooks.example.com/in --event signable-operation:update --user 6e68cc...',
  ]);
}
