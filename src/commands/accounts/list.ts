import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listAccounts, type Account } from '../../api/accounts.js';
import { render, type Column } from '../../output/render.js';
import { examples } from '../util.js';
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

export function registerAccountsList(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('list')
    .description("list the user's accounts with exact balances (GET /api/v1/accounts/list, accounts:read)")
    .action(async () => {
      const accounts = await listAccounts(await ctx.api());
      await render(ctx, forTerminal(ctx, accounts), { columns: ACCOUNT_COLUMNS });
    });
  examples(cmd, [
    'bankctl accounts list --user $USER_ID',
    'bankctl accounts list --user $USER_ID -o csv --fields id,name,balance',
    'bankctl accounts list --basic "$EXT_ID:$USER_TOKEN" -o json | jq -r \'.[].id\'',
  ]);
}
