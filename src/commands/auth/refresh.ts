// `auth refresh`: a new user token from the refresh token in the profile (or on standard input).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
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
  if (o.refreshTokenStdin) {
    refreshToken = (await ctx.readStdinSecret('--refresh-token-stdin', 'Refresh token')).trim();
    if (!refreshToken) throw new UsageError('--refresh-token-stdin: nothing was read from standard input');
  } else {
    const withRefresh = Object.entries(config.cachedTokens(profile))
      .filter(([, t]) => t.refreshToken)
      .sort(([, a], [, b]) => b.expiresAt - a.expiresAt);
    if (withRefresh[0]) {
      refreshToken = withRefresh[0][1].refreshToken;
      label = withRefresh[0][1].user ?? label;
    }
  }
  if (!refreshToken)
    throw new UsageError('no refresh token in this profile', {
      hint: 'refresh tokens come from the hosted link flow (`bankctl auth link`); or pass --refresh-token-stdin',
    });
  const tm = await ctx.tokens();
  const t = await tm.refresh(refreshToken);
  tm.remember(t, label);
  await render(ctx, t);
}
