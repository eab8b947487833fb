// `connector accounts delete ID --user U`: delete an account and its transactions.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { deleteConnectorAccount } from '../../../api/connector.js';
import { examples, type Run } from '../../util.js';
import { externalUser } from '../shared.js';
import { confirmDestructive, where } from '../../../prompts/confirm.js';

export interface DeleteOptions {
  user: string;
  accountId: string;
}

export function newCmdDelete(parent: Command, ctx: Context, run: Run<DeleteOptions> = deleteRun): Command {
  const cmd = parent
    .command('delete <externalAccountId>')
    .description(
      'delete an account and its transactions (DELETE /connector/users/{externalUserId}/accounts/{externalAccountId})',
    )
    .option('--user <externalUserId>', 'the user')
    .action(async (accountId: string, o: { user?: string }) => {
      const user = await externalUser(ctx, o.user);
      await confirmDestructive(ctx, {
        action: `delete account ${accountId} of connector user ${user} and its transactions`,
        details: [`account: ${accountId}`, `external user: ${user}`, ...(await where(ctx))],
      });
      await run(ctx, { user, accountId });
    });
  return examples(cmd, [
    'bankctl connector accounts delete acc-1 --user alice',
    'bankctl connector accounts delete acc-1 --user alice --yes   # in a script: no terminal to confirm on',
  ]);
}

export async function deleteRun(ctx: Context, o: DeleteOptions): Promise<void> {
  await deleteConnectorAccount(await ctx.api(), o.user, o.accountId);
  ctx.notice(`deleted account ${o.accountId}`);
}
