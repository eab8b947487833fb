// `auth logout`: forget the profile's client credentials, connector token and cached tokens.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Run } from '../util.js';

export type LogoutOptions = Record<string, never>;

export function newCmdLogout(parent: Command, ctx: Context, run: Run<LogoutOptions> = logoutRun): Command {
  const cmd = parent
    .command('logout')
    .description('forget the client credentials, connector token and cached tokens of the profile')
    .action(async () => run(ctx, {}));
  return examples(cmd, ['bankctl auth logout', 'bankctl auth logout --profile prod']);
}

export async function logoutRun(ctx: Context): Promise<void> {
  const config = await ctx.config();
  const profile = ctx.profileName();
  // a mistyped name logs nothing out: say so (it used to be saved as a new, empty profile, exit 0)
  ctx.requireSavedProfile(config, profile);
  const n = config.clearTokens(profile);
  const removed = config.deleteProfileSettings(profile, [
    'client-id',
    'client-secret',
    'token',
    'connector-token',
    'connector-token-next',
    'basic',
  ]);
  // what was removed, by name (it said only how many cached tokens, not that the client secret went)
  const what = [
    ...(removed.length > 0 ? [`its ${andList(removed)}`] : []),
    ...(n > 0 ? [`${n} cached token${n === 1 ? '' : 's'}`] : []),
  ];
  ctx.notice(
    (what.length > 0
      ? `logged out of profile "${profile}": removed ${what.join(', and ')}`
      : `logged out of profile "${profile}": it stored no credentials or cached tokens, nothing removed`) +
      (await stillReachesSandbox(ctx)),
  );
}

/**
 * What still works after the logout: with this config directory's sandbox running and the profile
 * (now without a client) pointed at it, commands use the sandbox's own client (the sandbox fallback
 * of config/settings.ts), so "logged out" alone read as if nothing would reach the service.
 */
async function stillReachesSandbox(ctx: Context): Promise<string> {
  ctx.invalidate();
  const s = await ctx.settings().catch(() => undefined);
  if (s?.get('client-id')?.source !== 'sandbox') return '';
  return `; commands still reach the running sandbox (${s.value('base-url')}) with its own client; \`bankctl sandbox stop\` ends that`;
}

/** "a", "a and b", "a, b and c". */
function andList(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
