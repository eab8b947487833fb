// `auth grant --scope S`: an authorization code for a user, or a delegated one for another client.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { UserRef } from '../../auth/tokens.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples, splitList, type Run } from '../util.js';

export interface GrantOptions {
  user: UserRef;
  scopes: string[];
  delegate?: { idHint: string; actorClientId: string };
}

interface Flags {
  scope: string;
  delegate?: boolean;
  idHint?: string;
  actorClientId?: string;
}

export function newCmdGrant(parent: Command, ctx: Context, run: Run<GrantOptions> = grantRun): Command {
  const cmd = parent
    .command('grant')
    .description('create an authorization code for a user (POST /api/v1/oauth/authorization-grant[/delegate])')
    .requiredOption('--scope <scopes>', 'scopes the code grants, comma-separated')
    .option('--delegate', 'a delegated code for another client (needs --id-hint and --actor-client-id)')
    .option('--id-hint <text>', 'human-readable hint shown to the end user (ISO-8859-1)')
    .option('--actor-client-id <id>', 'the client allowed to use the delegated code')
    .action(async (o: Flags) => {
      const user = await ctx.userRef();
      if (!user) throw new UsageError('which user? pass --user ID or --external-user ID');
      await run(ctx, { user, scopes: splitList(o.scope, '--scope'), delegate: delegateFromFlags(o) });
    });
  return examples(cmd, [
    'bankctl auth grant --user 6e68cc... --scope accounts:read,transactions:read',
    'bankctl auth grant --user 6e68cc... --scope credentials:write --delegate --id-hint "Alice" --actor-client-id df05e4...',
    'bankctl auth exchange "$(bankctl auth grant --user $U --scope accounts:read -o json | jq -r .code)"',
  ]);
}

function delegateFromFlags(o: Flags): GrantOptions['delegate'] {
  if (!o.delegate) {
    if (o.idHint || o.actorClientId) throw new UsageError('--id-hint and --actor-client-id only apply with --delegate');
    return undefined;
  }
  if (!o.idHint) throw new UsageError('--delegate needs --id-hint TEXT');
  if (!/^[\u0020-\u007e\u00a0-\u00ff]*$/.test(o.idHint))
    throw new UsageError('--id-hint must use ISO-8859-1 characters only');
  if (!o.actorClientId) throw new UsageError('--delegate needs --actor-client-id ID');
  return { idHint: o.idHint, actorClientId: o.actorClientId };
}

export async function grantRun(ctx: Context, o: GrantOptions): Promise<void> {
  const tm = await ctx.tokens();
  const code = await tm.grant(o.user, o.scopes, o.delegate);
  await render(ctx, { code });
}
