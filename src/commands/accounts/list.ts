// `accounts list`: the user's accounts with exact balances.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listAccounts, type Account } from '../../api/accounts.js';
import { render, type Column } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { balanceCell, forTerminal } from './format.js';

export const ACCOUNT_COLUMNS: Column[] = [
  { header: 'id', path: 'id' },
  { header: 'name', path: 'name' },
  { header: 'type', path: 'type' },
  { header: 'number', path: 'accountNumber' },
  { header: 'balance', path: 'balance', format: (_v, item) => balanceCell(item as Account) },
  { header: 'exclusion', path: 'accountExclusion' },
  { header: 'favored', path: 'favored' },
];

export type ListOptions = Record<string, never>;

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description("list the user's accounts with exact balances (GET /api/v1/accounts/list, accounts:read)")
    .action(async () => run(ctx, {}));
  return examples(cmd, [
    'bankctl accounts list --user $USER_ID',
    'bankctl accounts list --user $USER_ID -o csv --fields id,name,balance',
    'bankctl accounts list --basic "$EXT_ID:$USER_TOKEN" -o json | jq -r \'.[].id\'',
  ]);
}

export async function listRun(ctx: Context): Promise<void> {
  const accounts = await listAccounts(await ctx.api());
  await render(ctx, forTerminal(ctx, accounts), { columns: ACCOUNT_COLUMNS });
}
