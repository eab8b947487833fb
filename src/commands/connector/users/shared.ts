// What the connector users verbs share: the user token (from stdin, or warned about on the command
// line) and the ConnectorUser the flags describe.
import type { Context } from '../../../context.js';
import type { ConnectorUser } from '../../../api/connector.js';
import { isLocale, MARKETS } from '../../../contract/markets.js';
import { UsageError } from '../../../errors.js';
import { marketFlag } from '../../util.js';

export interface UserFlags {
  userToken?: string;
  userTokenStdin?: boolean;
  market?: string;
  locale?: string;
  label?: string;
  blocked?: boolean;
}

/**
 * The user token: the first line of standard input with --user-token-stdin, so it stays out of the
 * process list; --user-token works but is warned about.
 */
export async function userToken(ctx: Context, o: UserFlags): Promise<string> {
  if (o.userTokenStdin) {
    if (o.userToken) throw new UsageError('give --user-token or --user-token-stdin, not both');
    if (ctx.globals.clientSecretStdin)
      throw new UsageError('--user-token-stdin and --client-secret-stdin cannot both read standard input');
    let data = '';
    for await (const c of ctx.io.stdin) data += c.toString();
    const token = data.split(/\r?\n/)[0]!.trim();
    if (!token) throw new UsageError('--user-token-stdin: nothing was read from standard input');
    return token;
  }
  if (!o.userToken)
    throw new UsageError(
      '--user-token is required: the token the user will read their data with (HTTP Basic <externalId>:<token>)',
      { hint: 'give it on standard input with --user-token-stdin' },
    );
  if (!ctx.quiet)
    ctx.warn(
      '--user-token on the command line is visible to other users in the process list; use --user-token-stdin instead',
    );
  return o.userToken;
}

/** The ConnectorUser of the flags; `requireMarket` on create. */
export function connectorUser(externalId: string, token: string, o: UserFlags, requireMarket: boolean): ConnectorUser {
  if (requireMarket && o.market === undefined)
    throw new UsageError('--market is required', { hint: `one of ${MARKETS.join(', ')}` });
  const market = marketFlag(o.market);
  if (o.locale && !isLocale(o.locale)) throw new UsageError(`unsupported locale "${o.locale}"`);
  const u: ConnectorUser = { externalId, token };
  if (market) u.market = market;
  if (o.locale) u.locale = o.locale;
  if (o.label !== undefined) u.label = o.label;
  if (o.blocked !== undefined) u.blocked = o.blocked;
  return u;
}
