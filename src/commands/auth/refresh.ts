// `auth refresh`: a new user token from the refresh token in the profile (or on standard input).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { CachedToken } from '../../config/store.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { maskUrlPassword } from '../../config/display.js';
import { examples, type Run } from '../util.js';

export interface RefreshOptions {
  refreshTokenStdin: boolean;
}

export function newCmdRefresh(parent: Command, ctx: Context, run: Run<RefreshOptions> = refreshRun): Command {
  const cmd = parent
    .command('refresh')
    .description(
      'get a new user access token with the refresh token stored by `auth link` or `auth exchange` (grant_type=refresh_token)',
    )
    .option(
      '--refresh-token-stdin',
      'read the refresh token from the first line of standard input instead of the profile (on a terminal: asked for, masked)',
    )
    .action(async (o: { refreshTokenStdin?: boolean }) =>
      run(ctx, { refreshTokenStdin: Boolean(o.refreshTokenStdin) }),
    );
  return examples(cmd, ['bankctl auth refresh', 'bankctl auth refresh --refresh-token-stdin < refresh.txt']);
}

export async function refreshRun(ctx: Context, o: RefreshOptions): Promise<void> {
  const config = await ctx.config();
  const profile = ctx.profileName();
  let refreshToken: string | undefined;
  let label = 'refreshed';
  let used: CachedToken | undefined;
  if (o.refreshTokenStdin) {
    refreshToken = (await ctx.readStdinSecret('--refresh-token-stdin', 'Refresh token')).trim();
    if (!refreshToken) throw new UsageError('--refresh-token-stdin: nothing was read from standard input');
  } else {
    // only a refresh token this service and client issued: one kept from another base URL (a
    // --base-url or BANKCTL_BASE_URL of this run) must not be sent there, with another client
    const baseUrl = await ctx.baseUrl();
    const clientId = (await ctx.settings()).value('client-id');
    const all = Object.values(config.cachedTokens(profile)).filter((t) => t.refreshToken);
    const withRefresh = all
      .filter((t) => t.baseUrl === baseUrl && (!t.clientId || !clientId || t.clientId === clientId))
      .sort((a, b) => b.expiresAt - a.expiresAt);
    if (withRefresh[0]) {
      used = withRefresh[0];
      refreshToken = withRefresh[0].refreshToken;
      label = withRefresh[0].user ?? label;
    } else if (all.length > 0) {
      const where = [...new Set(all.map((t) => `${maskUrlPassword(t.baseUrl)} (client ${t.clientId ?? 'unknown'})`))];
      throw new UsageError(
        `no refresh token of ${maskUrlPassword(baseUrl)} (client ${clientId ?? 'not set'}) in profile "${profile}": the ones it holds were issued by ${where.join(', ')}`,
        {
          hint: 'a refresh token is only sent to the service and client that issued it: run with that base URL and client, or pass --refresh-token-stdin',
        },
      );
    }
  }
  if (!refreshToken)
    throw new UsageError('no refresh token in this profile', {
      hint: 'refresh tokens come from the hosted link flow (`bankctl auth link`); or pass --refresh-token-stdin',
    });
  const tm = await ctx.tokens();
  const t = await tm.refresh(refreshToken);
  // a service may answer without a new refresh token (RFC 6749 6: the one used stays valid): the
  // stored one is kept with the new access token, not dropped (the next refresh found none)
  const kept = used && !t.refresh_token ? { ...t, refresh_token: refreshToken } : t;
  const sameRefresh = used && kept.refresh_token === used.refreshToken;
  tm.remember(kept, label, sameRefresh && used?.refreshExpiresAt ? { refreshExpiresAt: used.refreshExpiresAt } : {});
  await render(ctx, t);
}
