// `auth token`: a bare access token and a newline, for $(...): a client token, or a user token.
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { Context } from '../../context.js';
import { examples, printsBare, splitList, type Run } from '../util.js';

export interface TokenOptions {
  scopes: string[];
  fresh: boolean;
}

export function newCmdToken(parent: Command, ctx: Context, run: Run<TokenOptions> = tokenRun): Command {
  const cmd = parent
    .command('token')
    .description(
      'print a bare access token and a newline: a client token, or a user token with --user/--external-user (or a user from the profile or BANKCTL_USER, unless every --scope is a client-token scope such as user:create)',
    )
    .option(
      '--scope <scopes>',
      'scopes, comma-separated (default: authorization:grant for a client token, user:read for a user token)',
    )
    .option(
      '--fresh',
      'get a new token even when one is cached (one the service revoked or no longer takes); it replaces the cached one',
    )
    .action(async (o: { scope?: string; fresh?: boolean }) =>
      run(ctx, { scopes: splitList(o.scope, '--scope'), fresh: Boolean(o.fresh) }),
    );
  printsBare(cmd, 'the bare access token');
  return examples(cmd, [
    'curl -H "Authorization: Bearer $(bankctl auth token --scope user:create)" ...',
    'bankctl auth token --user 6e68cc... --scope accounts:read,transactions:read',
    'bankctl auth token --fresh   # the cached token was revoked: fetch a new one',
  ]);
}

export async function tokenRun(ctx: Context, o: TokenOptions): Promise<void> {
  const tm = await ctx.tokens();
  const named = Boolean(ctx.globals.user || ctx.globals.externalUser);
  // a user from the profile or the environment does not make `--scope user:create` a user token:
  // the service takes that scope from a client token only (it would answer wrong_token_type)
  const user = named || !(await clientScopesOnly(o.scopes)) ? await ctx.userRef() : undefined;
  if (!user) {
    // a client token with transactions:read would be printed, and refused by every endpoint that asks for it
    const userOnly = await userScopes(o.scopes);
    if (userOnly.length > 0)
      throw new UsageError(
        `${userOnly.join(', ')} ${userOnly.length === 1 ? 'is a scope' : 'are scopes'} of user tokens: which user? pass --user ID or --external-user ID (or set BANKCTL_USER)`,
      );
  }
  const token = user
    ? await tm.userToken(user, o.scopes.length ? o.scopes : ['user:read'], o.fresh)
    : await tm.clientToken(o.scopes.length ? o.scopes : ['authorization:grant'], o.fresh);
  ctx.io.stdout.write(`${token}\n`);
}

/**
 * Per scope, the one token kind every bearer endpoint that asks for it takes ('client', 'user'...);
 * undefined when they differ or none asks for it (the connector API's take a connector token).
 */
async function soleTokenKinds(scopes: string[]): Promise<Array<string | undefined>> {
  const { ENDPOINTS } = await import('../../contract/index.js');
  return scopes.map((scope) => {
    const kinds = new Set(
      ENDPOINTS.filter((e) => e.scopes.includes(scope) && e.token !== 'connector' && e.token !== 'none').map(
        (e) => e.token,
      ),
    );
    return kinds.size === 1 ? [...kinds][0] : undefined;
  });
}

/** The scopes that only user-token endpoints use (transactions:read, user:delete, ...). */
async function userScopes(scopes: string[]): Promise<string[]> {
  const kinds = await soleTokenKinds(scopes);
  return scopes.filter((_, i) => kinds[i] === 'user');
}

/** Whether every scope is one that only client-token endpoints use (user:create, authorization:grant, ...). */
async function clientScopesOnly(scopes: string[]): Promise<boolean> {
  return scopes.length > 0 && (await soleTokenKinds(scopes)).every((k) => k === 'client');
}
