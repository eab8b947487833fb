// `credentials delete ID`: delete credentials (their accounts go when nothing else reaches them).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Run } from '../util.js';
import { confirmDestructive, credentialsFacts, where } from '../../prompts/confirm.js';

export interface DeleteOptions {
  id: string;
}

export function newCmdDelete(parent: Command, ctx: Context, run: Run<DeleteOptions> = deleteRun): Command {
  const cmd = parent
    .command('delete')
    .description(
      'delete credentials; accounts and transactions go when no other credentials give access to them (DELETE /api/v1/credentials/{id})',
    )
    .argument('<id>', 'credentials id')
    .action(async (id: string) => {
      await confirmDestructive(ctx, {
        action: `delete credentials ${id}`,
        details: [`credentials: ${id}`, ...(await credentialsFacts(ctx, id)), ...(await where(ctx))],
      });
      await run(ctx, { id });
    });
  return examples(cmd, [
    'bankctl credentials delete 6e68cc6287704273984567b3300c5822',
    'bankctl credentials delete 6e68cc6287704273984567b3300c5822 --yes   # in a script: no terminal to confirm on',
  ]);
}

export async function deleteRun(ctx: Context, o: DeleteOptions): Promise<void> {
  const { deleteCredentials } = await import('../../api/credentials.js');
  await deleteCredentials(await ctx.api(), o.id);
  ctx.notice(`deleted credentials ${o.id}`);
}
