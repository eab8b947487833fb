// `insights list`: the user's active insights.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listInsights, type Insight } from '../../api/insights.js';
import { render } from '../../output/render.js';
import { INSIGHT_FIELDS } from '../../contract/item-fields.js';
import { examples, type Run } from '../util.js';

const ACTIVE_COLUMNS = [
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

export type ListOptions = Record<string, never>;

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description('active insights (GET /api/v1/insights)')
    .action(async () => run(ctx, {}));
  return examples(cmd, [
    'bankctl insights list --user $USER_ID',
    'bankctl insights list -o json | jq -r ".[] | select(.type==\\"DOUBLE_CHARGE\\") | .id"',
  ]);
}

export async function listRun(ctx: Context): Promise<void> {
  await render(ctx, await listInsights(await ctx.api()), { columns: ACTIVE_COLUMNS, declared: INSIGHT_FIELDS });
}
