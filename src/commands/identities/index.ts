import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listIdentities } from '../../api/reads.js';
import { render } from '../../output/render.js';
import { examples } from '../util.js';
import { forTerminal } from '../accounts/format.js';

export function registerIdentities(program: Command, ctx: Context): void {
  const identities = program.command('identities').description('identity data the banks hold on the user');
  const list = identities
    .command('list')
    .description('list identity data per provider (GET /api/v1/identities, identity:read)')
    .action(async () => {
      await render(ctx, forTerminal(ctx, await listIdentities(await ctx.api())), {
        columns: [
          { header: 'provider', path: 'providerName' },
          { header: 'name', path: 'name' },
          { header: 'ssn', path: 'ssn' },
          { header: 'dateOfBirth', path: 'dateOfBirth' },
        ],
      });
    });
  examples(list, ['bankctl identities list --user $USER_ID', 'bankctl identities list -o json | jq -r ".[0].name"']);
}
