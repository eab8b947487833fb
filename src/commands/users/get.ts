// `users get`: the user of the token (GET /api/v1/user, user:read).
import { renderOne } from '../accounts/v2-cells.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getUser } from '../../api/user.js';
import type { Column } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { USER_FIELDS } from '../../contract/item-fields.js';

const USER_COLUMNS: Column[] = [
  { header: 'id', path: 'id' },
  { header: 'externalUserId', path: 'externalUserId' },
  { header: 'username', path: 'username' },
  { header: 'market', path: 'profile.market' },
  { header: 'locale', path: 'profile.locale' },
  { header: 'currency', path: 'profile.currency' },
  { header: 'created', path: 'created' },
];

/** The user's columns and the fields --fields takes on any answer. */
export const USER_VIEW = { columns: USER_COLUMNS, declared: USER_FIELDS };

export type GetOptions = Record<string, never>;

export function newCmdGet(parent: Command, ctx: Context, run: Run<GetOptions> = getRun): Command {
  const cmd = parent
    .command('get')
    .description('show the user of the token with its profile (GET /api/v1/user, user token, user:read)')
    .action(async () => run(ctx, {}));
  return examples(cmd, [
    'bankctl users get --user $USER_ID',
    'bankctl users get --user $USER_ID -o json | jq .profile',
  ]);
}

export async function getRun(ctx: Context): Promise<void> {
  await renderOne(ctx, await getUser(await ctx.api()), USER_VIEW);
}
