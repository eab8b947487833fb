import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../util.js';
import { registerConnectorWebhooks } from '../webhooks/connector-webhooks.js';
import { registerConnectorUsers } from './users.js';
import { registerConnectorAccounts } from './accounts.js';
import { registerConnectorTransactions } from './transactions.js';
import { registerConnectorBatch } from './batch.js';
import { registerConnectorToken } from './token.js';
import { registerConnectorPush } from './push.js';
import { registerConnectorVerify } from './verify.js';

export function registerConnector(program: Command, ctx: Context): void {
  const connector = program
    .command('connector')
    .description(
      'push users, accounts and transactions into the service (connector API; Token <connector token> or a client token)',
    );
  registerConnectorUsers(connector, ctx);
  registerConnectorAccounts(connector, ctx);
  registerConnectorTransactions(connector, ctx);
  registerConnectorBatch(connector, ctx);
  registerConnectorToken(connector, ctx);
  registerConnectorPush(connector, ctx);
  registerConnectorVerify(connector, ctx);
  registerConnectorWebhooks(connector, ctx);
  examples(connector, [
    'bankctl connector users create --external-id alice --user-token-stdin --market SE < token.txt',
    'bankctl connector accounts push --user alice --file accounts.json',
    'bankctl connector push --user alice --file transactions.ndjson --checkpoint push.ckpt --verify',
  ]);
}
