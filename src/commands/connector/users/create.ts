// `connector users create --external-id ID --user-token-stdin --market M`: activate a user.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { createConnectorUser, type ConnectorUser } from '../../../api/connector.js';
import { MARKETS } from '../../../contract/markets.js';
import { examples, type Run } from '../../util.js';
import { connectorUser, userToken, type UserFlags } from './shared.js';

export interface CreateOptions {
  user: ConnectorUser;
}

export function newCmdCreate(parent: Command, ctx: Context, run: Run<CreateOptions> = createRun): Command {
  const cmd = parent
    .command('create')
    .description('activate a user (POST /connector/users)')
    .requiredOption('--external-id <id>', 'your persistent identifier of the user')
    .option('--user-token <token>', 'the token the user reads their data with (HTTP Basic <externalId>:<token>)')
    .option('--user-token-stdin', 'read the user token from standard input instead')
    .option('--market <code>', `market, ISO 3166-1 (${MARKETS.join(', ')})`)
    .option('--locale <locale>', "locale (default: the market's own)")
    .option('--label <label>', 'a custom label')
    .option('--blocked', 'create the user blocked')
    .action(async (o: UserFlags & { externalId: string }) => {
      // the other flags first: a bad one should not cost the token on stdin
      connectorUser(o.externalId, '', o, true);
      const token = await userToken(ctx, o);
      await run(ctx, { user: connectorUser(o.externalId, token, o, true) });
    });
  return examples(cmd, [
    'echo "$ALICE_TOKEN" | bankctl connector users create --external-id alice --user-token-stdin --market SE',
    'bankctl connector users create --external-id bob --user-token-stdin --market GB --label "test user" < token.txt',
  ]);
}

export async function createRun(ctx: Context, o: CreateOptions): Promise<void> {
  await createConnectorUser(await ctx.api(), o.user);
  ctx.notice(`activated user ${o.user.externalId}`);
}
