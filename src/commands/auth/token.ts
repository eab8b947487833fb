import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, splitList } from '../util.js';

export function registerToken(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('token')
    .description('print a bare access token and a newline: a client token, or a user token with --user/--external-user')
    .option(
      '--scope <scopes>',
      'scopes, comma-separated (default: authorization:grant for a client token, user:read for a user token)',
    )
    .action(async (o: { scope?: string }) => {
      const tm = await ctx.tokens();
      const user = await ctx.userRef();
      const scopes = splitList(o.scope);
      const token = user
        ? await tm.userToken(user, scopes.length ? scopes : ['user:read'])
        : await tm.clientToken(scopes.length ? scopes : ['authorization:grant']);
      ctx.io.stdout.write(`${token}\n`);
    });
  examples(cmd, [
    'curl -H "Authorization: Bearer $(bankctl auth token --scope user:create)" ...',
    'bankctl auth token --user 6e68cc... --scope accounts:read,transactions:read',
  ]);
}
