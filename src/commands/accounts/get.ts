// `accounts get ID`: one account as data v2 shows it (GET /data/v2/accounts/{id}).
import { renderOne } from './v2-cells.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getAccountV2 } from '../../api/data-v2.js';
import { examples, type Run } from '../util.js';
import { V2_ACCOUNT_COLUMNS } from './list-v2.js';
import { V2_ACCOUNT_FIELDS } from '../../contract/item-fields.js';

export interface GetOptions {
  id: string;
}

export function newCmdGet(parent: Command, ctx: Context, run: Run<GetOptions> = getRun): Command {
  const cmd = parent
    .command('get')
    .argument('<id>', 'account id')
    .description('one account with exact balances (data v2: GET /data/v2/accounts/{id}, accounts:read)')
    .action(async (id: string) => run(ctx, { id }));
  return examples(cmd, [
    'bankctl accounts get $ACCOUNT --user $USER_ID',
    'bankctl accounts get $ACCOUNT -o json | jq .balances.booked.amount',
  ]);
}

export async function getRun(ctx: Context, o: GetOptions): Promise<void> {
  await renderOne(ctx, await getAccountV2(await ctx.api(), o.id), {
    columns: V2_ACCOUNT_COLUMNS,
    declared: V2_ACCOUNT_FIELDS,
  });
}
