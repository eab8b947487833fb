// `consents delete ID`: delete a consent, which deletes its credentials.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { deleteConsent } from '../../api/consents.js';
import { examples, type Run } from '../util.js';
import { confirmDestructive, credentialsFacts, where } from '../../prompts/confirm.js';

export interface DeleteOptions {
  credentialsId: string;
}

export function newCmdDelete(parent: Command, ctx: Context, run: Run<DeleteOptions> = deleteRun): Command {
  const cmd = parent
    .command('delete')
    .argument('<credentialsId>', "the consent's credentials id")
    .description('delete a consent, which deletes its credentials (DELETE /api/v1/credentials/{id}, credentials:write)')
    .action(async (credentialsId: string) => {
      await confirmDestructive(ctx, {
        action: `delete the consent of credentials ${credentialsId}`,
        details: [
          `credentials: ${credentialsId}`,
          ...(await credentialsFacts(ctx, credentialsId)),
          ...(await where(ctx)),
        ],
      });
      await run(ctx, { credentialsId });
    });
  return examples(cmd, [
    'bankctl consents delete 6e68cc6287704273984567b3300c5823 --user $USER_ID',
    'bankctl consents delete 6e68cc6287704273984567b3300c5823 --user $USER_ID --yes   # in a script: no terminal to confirm on',
  ]);
}

export async function deleteRun(ctx: Context, o: DeleteOptions): Promise<void> {
  await deleteConsent(await ctx.api(), o.credentialsId);
  ctx.notice(
    `deleted consent ${o.credentialsId} (its credentials are deleted; accounts no other consent reaches go with them)`,
  );
}
