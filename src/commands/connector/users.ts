// connector users create|update|delete (POST/PUT/DELETE /connector/users).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import {
  createConnectorUser,
  deleteConnectorUser,
  updateConnectorUser,
  type ConnectorUser,
} from '../../api/connector.js';
import { isLocale, isMarket, MARKETS } from '../../api/markets.js';
import { UsageError } from '../../errors.js';
import { examples } from '../util.js';

interface UserFlags {
  externalId?: string;
  userToken?: string;
  userTokenStdin?: boolean;
  market?: string;
  locale?: string;
  label?: string;
  blocked?: boolean;
}

/** --user-token-stdin: the first line of standard input, so the token stays out of the process list. */
async function readToken(ctx: Context, o: UserFlags): Promise<void> {
  if (!o.userTokenStdin) return;
  if (o.userToken) throw new UsageError('give --user-token or --user-token-stdin, not both');
  let data = '';
  for await (const c of ctx.io.stdin) data += c.toString();
  o.userToken = data.split(/\r?\n/)[0]!.trim();
  if (!o.userToken) throw new UsageError('--user-token-stdin: nothing was read from standard input');
}

function entity(externalId: string, o: UserFlags, requireMarket: boolean): ConnectorUser {
  if (!o.userToken)
    throw new UsageError(
      '--user-token is required: the token the user will read their data with (HTTP Basic <externalId>:<token>)',
    );
  const market = o.market?.toUpperCase();
  if (requireMarket && !market) throw new UsageError('--market is required', { hint: `one of ${MARKETS.join(', ')}` });
  if (market && !isMarket(market))
    throw new UsageError(`unknown market "${o.market}"`, { hint: `one of ${MARKETS.join(', ')}` });
  if (o.locale && !isLocale(o.locale)) throw new UsageError(`unsupported locale "${o.locale}"`);
  const u: ConnectorUser = { externalId, token: o.userToken };
  if (market) u.market = market;
  if (o.locale) u.locale = o.locale;
  if (o.label !== undefined) u.label = o.label;
  if (o.blocked !== undefined) u.blocked = o.blocked;
  return u;
}

export function registerConnectorUsers(connector: Command, ctx: Context): void {
  const users = connector.command('users').description('activate, update and delete connector users');

  const create = users
    .command('create')
    .description('activate a user (POST /connector/users)')
    .requiredOption('--external-id <id>', 'your persistent identifier of the user')
    .option('--user-token <token>', 'the token the user reads their data with (HTTP Basic <externalId>:<token>)')
    .option('--user-token-stdin', 'read the user token from standard input instead')
    .option('--market <code>', `market, ISO 3166-1 (${MARKETS.join(', ')})`)
    .option('--locale <locale>', "locale (default: the market's own)")
    .option('--label <label>', 'a custom label')
    .option('--blocked', 'create the user blocked')
    .action(async (o: UserFlags) => {
      await readToken(ctx, o);
      const u = entity(o.externalId!, o, true);
      await createConnectorUser(await ctx.api(), u);
      ctx.notice(`activated user ${u.externalId}`);
    });
  examples(create, [
    'echo "$ALICE_TOKEN" | bankctl connector users create --external-id alice --user-token-stdin --market SE',
    'bankctl connector users create --external-id bob --user-token t0k --market GB --label "test user"',
  ]);

  const update = users
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
      await readToken(ctx, o);
      await updateConnectorUser(await ctx.api(), externalUserId, entity(externalUserId, o, false));
      ctx.notice(`updated user ${externalUserId}`);
    });
  examples(update, [
    'bankctl connector users update alice --user-token "$ALICE_TOKEN" --blocked',
    'bankctl connector users update alice --user-token "$ALICE_TOKEN" --no-blocked --label vip',
  ]);

  const del = users
    .command('delete <externalUserId>')
    .description('delete a user and all of their data (DELETE /connector/users/{externalUserId})')
    .action(async (externalUserId: string) => {
      await deleteConnectorUser(await ctx.api(), externalUserId);
      ctx.notice(`deleted user ${externalUserId}`);
    });
  examples(del, ['bankctl connector users delete alice']);
  examples(users, [
    'bankctl connector users create --external-id alice --user-token-stdin --market SE < token.txt',
    'bankctl connector users delete alice',
  ]);
}
