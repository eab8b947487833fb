import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { deleteUser } from '../../api/users.js';
import { UsageError } from '../../errors.js';
import { examples } from '../util.js';

export function registerUsersDelete(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('delete')
    .description('delete the user given by --user/--external-user and all of their data (POST /api/v1/user/delete)')
    .action(async () => {
      const user = await ctx.userRef();
      if (!user) throw new UsageError('which user? pass --user ID or --external-user ID');
      const api = await ctx.api();
      await deleteUser(api);
      ctx.notice(`deleted user ${user.userId ?? user.externalUserId}`);
    });
  examples(cmd, [
    'bankctl users delete --user 6e68cc6287704273984567b3300c5823',
    'bankctl users delete --external-user alice',
  ]);
}
