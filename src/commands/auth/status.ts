// `auth status`: the profile, base URL, client and cached tokens (secrets only as set / not set).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { maskUrlPassword } from '../../config/display.js';
import { usedNow } from '../../auth/tokens.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';

export type StatusOptions = Record<string, never>;

export function newCmdStatus(parent: Command, ctx: Context, run: Run<StatusOptions> = statusRun): Command {
  const cmd = parent
    .command('status')
    .description('show the profile, base URL, client and the cached tokens with their scopes and expiry')
    .action(async () => run(ctx, {}));
  return examples(cmd, ['bankctl auth status', 'bankctl auth status -o json | jq .tokens']);
}

export async function statusRun(ctx: Context): Promise<void> {
  const s = await ctx.settings();
  const config = await ctx.config();
  const profile = ctx.profileName();
  const now = ctx.clock.now();
  const clientId = s.get('client-id');
  const baseUrl = await ctx.baseUrl();
  // the cache keeps tokens of every service and client the profile met (a stopped sandbox's, a
  // --base-url run's): each says whose it is, and `current` marks those commands use now. Listed
  // alike, a stopped sandbox's token read as one of the live one's.
  const clientSecret = s.value('client-secret');
  const tokens = Object.entries(config.cachedTokens(profile)).map(([key, t]) => ({
    kind: t.kind,
    user: t.user,
    scope: t.scope,
    expiresAt: new Date(t.expiresAt).toISOString(),
    expired: t.expiresAt <= now,
    hasRefreshToken: Boolean(t.refreshToken),
    baseUrl: maskUrlPassword(t.baseUrl),
    clientId: t.clientId ?? null,
    // one this run would send: the same base URL, client and (for a client's token) secret
    current: usedNow(key, t, { baseUrl, clientId: clientId?.value, clientSecret }),
  }));
  const status = {
    profile,
    baseUrl: maskUrlPassword(baseUrl),
    baseUrlSource: s.get('base-url')?.source,
    clientId: clientId?.value ?? null,
    clientIdSource: clientId?.source ?? null,
    clientSecret: clientSecret ? 'set' : 'not set',
    connectorToken: s.value('connector-token') ? 'set' : 'not set',
    // a ready token (--token, BANKCTL_TOKEN, the profile's) is sent as is instead of the cached ones
    token: s.value('token') ? 'set' : 'not set',
    tokenSource: s.get('token')?.source ?? null,
    user: (await ctx.userRef()) ?? null,
    configFile: config.file,
    tokens,
  };
  const format = await ctx.outputFormat();
  if (format === 'table' || format === 'csv') {
    // words in the cells, not JSON text: the acting user as --user or --external-user names it
    const u = status.user;
    const others = tokens.filter((t) => !t.current).length;
    const cells: Record<string, unknown> = {
      ...status,
      // nothing set reads "not set", as the secrets do, rather than an empty cell
      clientId: status.clientId ?? 'not set',
      user: u?.userId ?? (u?.externalUserId !== undefined ? `external ${u.externalUserId}` : 'not set'),
      tokens: `${tokens.length} cached${others === 0 ? '' : `, ${others} of another base URL, client or secret`}`,
    };
    // a table has no row for the source of what is not set (csv keeps its columns, one row)
    if (format === 'table')
      for (const k of ['clientIdSource', 'tokenSource'] as const) if (status[k] === null) delete cells[k];
    await render(ctx, cells);
    // a table lists the cached tokens below; csv is one row (-o json has them all)
    if (format === 'table' && tokens.length > 0) await render(ctx, tokens);
    return;
  }
  await render(ctx, status);
}
