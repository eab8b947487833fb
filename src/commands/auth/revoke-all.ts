// `auth revoke-all`: revoke every token of a user, and forget the cached ones.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { UserRef } from '../../auth/tokens.js';
import { UsageError } from '../../errors.js';
import { examples, type Run } from '../util.js';
import { confirmDestructive, where } from '../../prompts/confirm.js';

export interface RevokeAllOptions {
  user: UserRef;
}

export function newCmdRevokeAll(parent: Command, ctx: Context, run: Run<RevokeAllOptions> = revokeAllRun): Command {
  const cmd = parent
    .command('revoke-all')
    .description('revoke all access and refresh tokens of a user (POST /api/v1/oauth/revoke-all)')
    .action(async () => {
      const user = await ctx.userRef();
      if (!user) throw new UsageError('which user? pass --user ID or --external-user ID');
      await confirmDestructive(ctx, {
        action: `revoke every token of user ${user.userId ?? user.externalUserId}`,
        details: [`user: ${user.userId ?? user.externalUserId}`, ...(await where(ctx))],
      });
      await run(ctx, { user });
    });
  return examples(cmd, [
    'bankctl auth revoke-all --user 6e68cc6287704273984567b3300c5823',
    'bankctl auth revoke-all --user 6e68cc6287704273984567b3300c5823 --yes   # in a script: no terminal to confirm on',
  ]);
}

export async function revokeAllRun(ctx: Context, { user }: RevokeAllOptions): Promise<void> {
  const { revokeAllTokens } = await import('../../api/users.js');
  await revokeAllTokens(await ctx.api(), user);
  const tokens = await ctx.tokens();
  tokens.forgetUser(user);
  // a token from auth exchange, link or refresh is cached without its user: it may be one of the
  // revoked ones, and `auth status` still lists it, so say that it was kept
  const kept = tokens.unattributedUserTokens();
  const note =
    kept === 0
      ? ''
      : `; ${kept} cached user token${kept === 1 ? '' : 's'} from auth exchange, link or refresh kept (bankctl cannot tell whose ${kept === 1 ? 'it is' : 'they are'})`;
  ctx.notice(`revoked all tokens of user ${user.userId ?? user.externalUserId}${note}`);
}
