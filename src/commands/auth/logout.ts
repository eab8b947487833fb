import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../util.js';

export function registerLogout(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('logout')
    .description('forget the client credentials, connector token and cached tokens of the profile')
    .action(async () => {
      const config = await ctx.config();
      const profile = ctx.profileName();
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
    });
  examples(cmd, ['bankctl auth logout', 'bankctl auth logout --profile prod']);
}
