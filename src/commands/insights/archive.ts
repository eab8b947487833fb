// `insights archive ID`: archive without an action (a deprecated endpoint).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { archiveInsight } from '../../api/insights.js';
import { examples, type Run } from '../util.js';

export interface ArchiveOptions {
  id: string;
}

export function newCmdArchive(parent: Command, ctx: Context, run: Run<ArchiveOptions> = archiveRun): Command {
  const cmd = parent
    .command('archive')
    .argument('<id>', 'id of an active insight')
    .description('archive an insight without an action (PUT /api/v1/insights/{id}/archive, deprecated by the service)')
    .action(async (id: string) => run(ctx, { id }));
  return examples(cmd, ['bankctl insights archive e2b746ed27c542ce846a8d693474df21']);
}

export async function archiveRun(ctx: Context, o: ArchiveOptions): Promise<void> {
  await archiveInsight(await ctx.api(), o.id);
  ctx.notice(
    `insight ${o.id} archived (this endpoint is deprecated; prefer \`bankctl insights action ID --action DISMISS\`)`,
  );
}
