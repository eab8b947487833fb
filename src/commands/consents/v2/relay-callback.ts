// `consents v2 relay-callback`: hand the bank's redirect back to the service when the app's own
// callback received it (POST /connectivity/v2/authorizations:relay-callback, client token; Beta).
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { relayCallback } from '../../../api/consents-v2.js';
import { UsageError } from '../../../errors.js';
import { collect, examples, parseKeyValue, type Run } from '../../util.js';

export interface RelayOptions {
  state: string;
  parameters: Record<string, string>;
}

/** --url CALLBACK (its query is the parameters, its state the state) or --state S [--param k=v]... */
export function relayFromFlags(f: { url?: string; state?: string; param?: string[] }): RelayOptions {
  const parameters: Record<string, string> = {};
  let state = f.state;
  if (f.url) {
    let u: URL;
    try {
      u = new URL(f.url);
    } catch {
      throw new UsageError(`--url is not a URL: "${f.url.slice(0, 80)}"`);
    }
    for (const [k, v] of u.searchParams) if (k !== 'state') parameters[k] = v;
    state ??= u.searchParams.get('state') ?? undefined;
  }
  for (const p of f.param ?? []) {
    const [k, v] = parseKeyValue(p, '--param');
    parameters[k] = v;
  }
  if (!state) throw new UsageError('the state is required: --state STATE, or --url with a state parameter');
  return { state, parameters };
}

export function newCmdRelayCallback(parent: Command, ctx: Context, run: Run<RelayOptions> = relayRun): Command {
  const cmd = parent
    .command('relay-callback')
    .description(
      "relay a bank's redirect to the service (POST /connectivity/v2/authorizations:relay-callback, client token, consents; Beta)",
    )
    .option('--url <callback-url>', 'the URL the bank redirected to (state and parameters from its query)')
    .option('--state <state>', 'the state parameter')
    .option('--param <key=value>', 'a callback parameter (repeatable)', collect)
    .action(async (f: { url?: string; state?: string; param?: string[] }) => run(ctx, relayFromFlags(f)));
  return examples(cmd, [
    "bankctl consents v2 relay-callback --url 'https://example.com/callback?code=abc&state=xyz'",
    'bankctl consents v2 relay-callback --state $STATE --param code=abc',
  ]);
}

export async function relayRun(ctx: Context, o: RelayOptions): Promise<void> {
  await relayCallback(await ctx.api(), o.state, o.parameters);
  ctx.notice('relayed: the authorization goes on at the service');
}
