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
  config.deleteProfileSettings(profile, [
    'client-id',
    'client-secret',
    'token',
    'connector-token',
    'connector-token-next',
    'basic',
  ]);
  ctx.notice(`logged out of profile "${profile}" (${n} cached token${n === 1 ? '' : 's'} removed)`);
}
