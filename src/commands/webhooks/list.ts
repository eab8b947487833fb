// `webhooks list`: the webhooks registered through the API (the client's, or --user's).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listHooks } from '../../api/webhooks.js';
import { examples, type Run } from '../util.js';
import { API_HOOK_COLUMNS, renderHooks } from './shared.js';

export type ListOptions = Record<string, never>;

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description(
      "list webhooks registered through the API (GET /api/v1/hooks): the client's, or with a user (--user, BANKCTL_USER or the profile's) that user's",
    )
    .action(async () => run(ctx, {}));
  return examples(cmd, [
    'bankctl webhooks list',
    'bankctl webhooks list --user 6e68cc6287704273984567b3300c5823',
    'bankctl webhooks list -o json | jq -r ".[].id"',
  ]);
}

export async function listRun(ctx: Context): Promise<void> {
  await renderHooks(ctx, await listHooks(await ctx.api()), API_HOOK_COLUMNS);
}
