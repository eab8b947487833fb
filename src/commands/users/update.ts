// `users update`: change the user's external id or username (PATCH /api/v1/user, user:write).
import { renderOne } from '../accounts/v2-cells.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getUser, updateUser } from '../../api/user.js';
import { UsageError } from '../../errors.js';
import { examples, type Run } from '../util.js';
import { USER_VIEW } from './get.js';

export interface UpdateOptions {
  externalUserId?: string;
  username?: string;
}

export function newCmdUpdate(parent: Command, ctx: Context, run: Run<UpdateOptions> = updateRun): Command {
  const cmd = parent
    .command('update')
    .description("change the user's external id or username (PATCH /api/v1/user, user token, user:write)")
    .option('--external-user-id <id>', 'the new external user id')
    .option('--username <name>', 'the new username')
    .action(async (f: { externalUserId?: string; username?: string }) => {
      if (f.externalUserId === undefined && f.username === undefined)
        throw new UsageError('nothing to update: give --external-user-id or --username');
      if (f.externalUserId === '') throw new UsageError('--external-user-id cannot be empty');
      const o: UpdateOptions = {};
      if (f.externalUserId !== undefined) o.externalUserId = f.externalUserId;
      if (f.username !== undefined) o.username = f.username;
      await run(ctx, o);
    });
  return examples(cmd, [
    'bankctl users update --user $USER_ID --username tinker@example.com',
    'bankctl users update --user $USER_ID --external-user-id customer-42 -o json',
  ]);
}

export async function updateRun(ctx: Context, o: UpdateOptions): Promise<void> {
  const api = await ctx.api();
  // the reference: "The id of the user must also be given, and must match the ID of the
  // authenticated user access token" (its example leaves it out): the token's user is read first
  const { id } = await getUser(api);
  await renderOne(ctx, await updateUser(api, { ...(typeof id === 'string' ? { id } : {}), ...o }), USER_VIEW);
}
