import type { Command } from 'commander';
import type { Context } from '../../context.js';
import {
  archiveInsight,
  listArchivedInsights,
  listInsights,
  selectInsightAction,
  type Insight,
} from '../../api/insights.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples } from '../util.js';

const activeColumns = [
  { header: 'id', path: 'id' },
  { header: 'type', path: 'type' },
  { header: 'title', path: 'title' },
  {
    header: 'actions',
    path: 'insightActions',
    format: (v: unknown) => ((v as Insight['insightActions']) ?? []).map((a) => a.data?.type).join(', '),
  },
  { header: 'created', path: 'createdTime' },
];

export function registerInsights(program: Command, ctx: Context): void {
  const insights = program
    .command('insights')
    .description("actionable insights from the user's data: active, then archived once acted on (user token)");

  const list = insights
    .command('list')
    .description('active insights (GET /api/v1/insights)')
    .action(async () => {
      await render(ctx, await listInsights(await ctx.api()), { columns: activeColumns });
    });
  examples(list, [
    'bankctl insights list --user $USER',
    'bankctl insights list -o json | jq -r ".[] | select(.type==\\"DOUBLE_CHARGE\\") | .id"',
  ]);

  const archived = insights
    .command('archived')
    .description('archived insights (GET /api/v1/insights/archived)')
    .action(async () => {
      await render(ctx, await listArchivedInsights(await ctx.api()), {
        columns: [
          { header: 'id', path: 'id' },
          { header: 'type', path: 'type' },
          { header: 'title', path: 'title' },
          { header: 'action', path: 'insightAction' },
          { header: 'archived', path: 'dateArchived' },
        ],
      });
    });
  examples(archived, ['bankctl insights archived --user $USER']);

  const action = insights
    .command('action')
    .argument('<id>', 'id of an active insight')
    .requiredOption(
      '--action <type>',
      'the action the user chose, one the insight offers (e.g. ACKNOWLEDGE, DISMISS, CREATE_TRANSFER)',
    )
    .description('report the action taken on an insight, which archives it (POST /api/v1/insights/action)')
    .action(async (id: string, o: { action: string }) => {
      const type = o.action.trim().toUpperCase();
      if (!/^[A-Z_]+$/.test(type))
        throw new UsageError(`--action must be an action type such as ACKNOWLEDGE, got "${o.action}"`);
      await selectInsightAction(await ctx.api(), id, type);
      ctx.notice(`insight ${id} archived after ${type}`);
    });
  examples(action, ['bankctl insights action e2b746ed27c542ce846a8d693474df21 --action ACKNOWLEDGE']);

  const archive = insights
    .command('archive')
    .argument('<id>', 'id of an active insight')
    .description('archive an insight without an action (PUT /api/v1/insights/{id}/archive, deprecated by the service)')
    .action(async (id: string) => {
      await archiveInsight(await ctx.api(), id);
      ctx.notice(
        `insight ${id} archived (this endpoint is deprecated; prefer \`bankctl insights action ID --action DISMISS\`)`,
      );
    });
  examples(archive, ['bankctl insights archive e2b746ed27c542ce846a8d693474df21']);
}
