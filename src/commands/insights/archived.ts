// `insights archived`: the insights acted on or archived.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listArchivedInsights } from '../../api/insights.js';
import { render } from '../../output/render.js';
import { ARCHIVED_INSIGHT_FIELDS } from '../../contract/item-fields.js';
import { examples, type Run } from '../util.js';

export type ArchivedOptions = Record<string, never>;

export function newCmdArchived(parent: Command, ctx: Context, run: Run<ArchivedOptions> = archivedRun): Command {
  const cmd = parent
    .command('archived')
    .description('archived insights (GET /api/v1/insights/archived)')
    .action(async () => run(ctx, {}));
  return examples(cmd, ['bankctl insights archived --user $USER_ID']);
}

export async function archivedRun(ctx: Context): Promise<void> {
  await render(ctx, await listArchivedInsights(await ctx.api()), {
    columns: [
      { header: 'id', path: 'id' },
      // the vendor reference's insightType, or the older Swagger's type
      { header: 'type', path: 'insightType', alt: 'type' },
      { header: 'title', path: 'title' },
      // what the reference's ArchivedInsight has (insightAction is only the sandbox's)
      { header: 'created', path: 'dateInsightCreated' },
      { header: 'archived', path: 'dateArchived' },
    ],
    declared: ARCHIVED_INSIGHT_FIELDS,
  });
}
