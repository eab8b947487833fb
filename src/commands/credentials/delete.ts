import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../util.js';

export function registerCredentialsDelete(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('delete')
    .description(
      'delete credentials; accounts and transactions go when no other credentials give access to them (DELETE /api/v1/credentials/{id})',
    )
    .argument('<id>', 'credentials id')
    .action(async (id: string) => {
      const { deleteCredentials } = await import('../../api/credentials.js');
      await deleteCredentials(await ctx.api(), id);
      ctx.notice(`deleted credentials ${id}`);
    });
  examples(cmd, ['bankctl credentials delete 6e68cc6287704273984567b3300c5822']);
}
