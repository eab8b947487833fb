// `auth token`: a bare access token and a newline, for $(...): a client token, or a user token.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, splitList, type Run } from '../util.js';

export interface TokenOptions {
  scopes: string[];
}

export function newCmdToken(parent: Command, ctx: Context, run: Run<TokenOptions> = tokenRun): Command {
  const cmd = parent
    .command('token')
    .description('print a bare access token and a newline: a client token, or a user token with --user/--external-user')
    .option(
      '--scope <scopes>',
      'scopes, comma-separated (default: authorization:grant for a client token, user:read for a user token)',
    )
    .action(async (o: { scope?: string }) => run(ctx, { scopes: splitList(o.scope) }));
  return examples(cmd, [
    'curl -H "Authorization: Bearer $(bankctl auth token --scope user:create)" ...',
    'bankctl auth token --user 6e68cc... --scope accounts:read,transactions:read',
  ]);
}

export async function tokenRun(ctx: Context, o: TokenOptions): Promise<void> {
  const tm = await ctx.tokens();
  const user = await ctx.userRef();
  const token = user
    ? await tm.userToken(user, o.scopes.length ? o.scopes : ['user:read'])
    : await tm.clientToken(o.scopes.length ? o.scopes : ['authorization:grant']);
  ctx.io.stdout.write(`${token}\n`);
}
