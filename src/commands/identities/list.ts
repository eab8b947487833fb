// `identities list`: the identity data each bank holds on the user.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listIdentities } from '../../api/reads.js';
import { listIdentitiesV2 } from '../../api/data-v2.js';
import { render } from '../../output/render.js';
import { IDENTITY_FIELDS } from '../../contract/item-fields.js';
import { examples, type Run } from '../util.js';

/** `v2`: read GET /data/v2/identities. */
export type ListOptions = { v2?: boolean };

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description(
      'list identity data per provider: v1 (GET /api/v1/identities, identity:read) unless --v2 (GET /data/v2/identities, identities:readonly)',
    )
    .option('--v2', 'read the data v2 identities (Beta)')
    .action(async (o: { v2?: boolean }) => run(ctx, o.v2 ? { v2: true } : {}));
  return examples(cmd, [
    'bankctl identities list --user $USER_ID',
    'bankctl identities list -o json | jq -r ".[0].name"',
    'bankctl identities list --v2 -o csv',
  ]);
}

export async function listRun(ctx: Context, o: ListOptions = {}): Promise<void> {
  const api = await ctx.api();
  const items = o.v2 ? await listIdentitiesV2(api) : await listIdentities(api);
  await render(ctx, items, {
    columns: [
      { header: 'provider', path: 'providerName' },
      { header: 'name', path: 'name' },
      { header: 'ssn', path: 'ssn' },
      { header: 'dateOfBirth', path: 'dateOfBirth' },
    ],
    declared: IDENTITY_FIELDS,
  });
}
