// `identities list`: the identity data each bank holds on the user.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listIdentities } from '../../api/reads.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { forTerminal } from '../accounts/format.js';

export type ListOptions = Record<string, never>;

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description('list identity data per provider (GET /api/v1/identities, identity:read)')
    .action(async () => run(ctx, {}));
  return examples(cmd, [
    'bankctl identities list --user $USER_ID',
    'bankctl identities list -o json | jq -r ".[0].name"',
  ]);
}

export async function listRun(ctx: Context): Promise<void> {
  await render(ctx, forTerminal(ctx, await listIdentities(await ctx.api())), {
    columns: [
      { header: 'provider', path: 'providerName' },
      { header: 'name', path: 'name' },
      { header: 'ssn', path: 'ssn' },
      { header: 'dateOfBirth', path: 'dateOfBirth' },
    ],
  });
}
