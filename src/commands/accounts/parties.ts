// `accounts parties ID`: who holds or may use an account (GET /data/v2/accounts/{id}/parties).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getParties } from '../../api/data-v2.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';

export interface PartiesOptions {
  id: string;
}

export function newCmdParties(parent: Command, ctx: Context, run: Run<PartiesOptions> = partiesRun): Command {
  const cmd = parent
    .command('parties')
    .argument('<id>', 'account id')
    .description(
      "an account's parties: holders and authorized users (data v2: GET /data/v2/accounts/{id}/parties, accounts.parties:readonly)",
    )
    .action(async (id: string) => run(ctx, { id }));
  return examples(cmd, [
    'bankctl accounts parties $ACCOUNT --user $USER_ID',
    'bankctl accounts parties $ACCOUNT -o json',
  ]);
}

export async function partiesRun(ctx: Context, o: PartiesOptions): Promise<void> {
  const parties = await getParties(await ctx.api(), o.id);
  await render(ctx, parties, {
    columns: [
      { header: 'role', path: 'role' },
      { header: 'name', path: 'identity.name' },
      { header: 'ssn', path: 'identity.ssn' },
    ],
  });
}
