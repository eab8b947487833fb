// `connector users update ID`: change a user's token, market, locale, label or blocked state.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { updateConnectorUser, type ConnectorUser } from '../../../api/connector.js';
import { examples, type Run } from '../../util.js';
import { connectorUser, userToken, type UserFlags } from './shared.js';

export interface UpdateOptions {
  user: ConnectorUser;
}

export function newCmdUpdate(parent: Command, ctx: Context, run: Run<UpdateOptions> = updateRun): Command {
  const cmd = parent
    .command('update <externalUserId>')
    .description('update a user: token, market, locale, label, blocked (PUT /connector/users/{externalUserId})')
    .option('--user-token <token>', 'the user token (the spec requires it on every update)')
    .option('--user-token-stdin', 'read the user token from standard input instead')
    .option('--market <code>', 'market')
    .option('--locale <locale>', 'locale')
    .option('--label <label>', 'a custom label')
    .option('--blocked', 'block the user')
    .option('--no-blocked', 'unblock the user')
    .action(async (externalUserId: string, o: UserFlags) => {
      connectorUser(externalUserId, '', o, false);
      const token = await userToken(ctx, o);
      await run(ctx, { user: connectorUser(externalUserId, token, o, false) });
    });
  return examples(cmd, [
    'bankctl connector users update alice --user-token-stdin --blocked < alice-token.txt',
    'echo "$ALICE_TOKEN" | bankctl connector users update alice --user-token-stdin --no-blocked --label vip',
  ]);
}

export async function updateRun(ctx: Context, o: UpdateOptions): Promise<void> {
  await updateConnectorUser(await ctx.api(), o.user.externalId, o.user);
  ctx.notice(`updated user ${o.user.externalId}`);
}
