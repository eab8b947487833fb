// `accounts list`: the user's accounts with exact balances.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listAccounts, type Account } from '../../api/accounts.js';
import { V1_ACCOUNT_FIELDS } from '../../contract/item-fields.js';
import { render, type Column } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { balanceCell } from './format.js';
import { addV2Flags, listV2Run, v2FromFlags, type ListV2Options, type V2Flags } from './list-v2.js';

export const ACCOUNT_COLUMNS: Column[] = [
  { header: 'id', path: 'id' },
  { header: 'name', path: 'name' },
  { header: 'type', path: 'type' },
  { header: 'number', path: 'accountNumber' },
  { header: 'balance', path: 'balance', format: (_v, item) => balanceCell(item as Account), money: true },
  { header: 'exclusion', path: 'accountExclusion' },
  { header: 'favored', path: 'favored' },
];

/** Empty for the v1 list; `v2` with --v2. */
export type ListOptions = { v2?: ListV2Options };

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = addV2Flags(
    parent
      .command('list')
      .description(
        "list the user's accounts with exact balances: v1 (GET /api/v1/accounts/list, accounts:read) unless --v2 (GET /data/v2/accounts, accounts:read)",
      ),
  ).action(async (o: V2Flags) => {
    const v2 = v2FromFlags(o);
    await run(ctx, v2 ? { v2 } : {});
  });
  return examples(cmd, [
    'bankctl accounts list --user $USER_ID',
    'bankctl accounts list --user $USER_ID -o csv --fields id,name,balance',
    'bankctl accounts list --v2 --type CHECKING --all -o ndjson',
    'bankctl accounts list --basic "$EXT_ID:$USER_TOKEN" -o json | jq -r \'.[].id\'',
  ]);
}

export async function listRun(ctx: Context, o: ListOptions = {}): Promise<void> {
  if (o.v2) return listV2Run(ctx, o.v2);
  const accounts = await listAccounts(await ctx.api());
  await render(ctx, accounts, { columns: ACCOUNT_COLUMNS, declared: V1_ACCOUNT_FIELDS });
}
