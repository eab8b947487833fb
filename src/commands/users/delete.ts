// `users delete --user ID`: delete a user and all of their data.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { UserRef } from '../../auth/tokens.js';
import { deleteUser } from '../../api/users.js';
import { UsageError } from '../../errors.js';
import { examples, type Run } from '../util.js';
import { confirmDestructive, where } from '../../prompts/confirm.js';

export interface DeleteOptions {
  user: UserRef;
}

export function newCmdDelete(parent: Command, ctx: Context, run: Run<DeleteOptions> = deleteRun): Command {
  const cmd = parent
    .command('delete')
    .description('delete the user given by --user/--external-user and all of their data (POST /api/v1/user/delete)')
    .action(async () => {
      const user = await ctx.userRef();
      if (!user) throw new UsageError('which user? pass --user ID or --external-user ID');
      await confirmDestructive(ctx, {
        action: `delete user ${user.userId ?? user.externalUserId} and all of their data`,
        details: [`user: ${user.userId ?? user.externalUserId}`, ...(await where(ctx))],
      });
      await run(ctx, { user });
    });
  return examples(cmd, [
    'bankctl users delete --user 6e68cc6287704273984567b3300c5823',
    'bankctl users delete --external-user alice',
    'bankctl users delete --external-user alice --yes   # in a script: no terminal to confirm on',
  ]);
}

export async function deleteRun(ctx: Context, { user }: DeleteOptions): Promise<void> {
  await deleteUser(await ctx.api());
  ctx.notice(`deleted user ${user.userId ?? user.externalUserId}`);
}
