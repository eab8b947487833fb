// `connector users delete ID`: delete a user and all of their data.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { deleteConnectorUser } from '../../../api/connector.js';
import { examples, type Run } from '../../util.js';
import { confirmDestructive, where } from '../../../prompts/confirm.js';

export interface DeleteOptions {
  externalUserId: string;
}

export function newCmdDelete(parent: Command, ctx: Context, run: Run<DeleteOptions> = deleteRun): Command {
  const cmd = parent
    .command('delete <externalUserId>')
    .description('delete a user and all of their data (DELETE /connector/users/{externalUserId})')
    .action(async (externalUserId: string) => {
      await confirmDestructive(ctx, {
        action: `delete connector user ${externalUserId} with its accounts and transactions`,
        details: [`external user: ${externalUserId}`, ...(await where(ctx))],
      });
      await run(ctx, { externalUserId });
    });
  return examples(cmd, [
    'bankctl connector users delete alice',
    'bankctl connector users delete alice --yes   # in a script: no terminal to confirm on',
  ]);
}

export async function deleteRun(ctx: Context, o: DeleteOptions): Promise<void> {
  await deleteConnectorUser(await ctx.api(), o.externalUserId);
  ctx.notice(`deleted user ${o.externalUserId}`);
}
