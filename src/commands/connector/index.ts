// `connector`: its verbs and sub-nouns (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../util.js';
import { registerConnectorUsers } from './users/index.js';
import { registerConnectorAccounts } from './accounts/index.js';
import { registerConnectorTransactions } from './transactions/index.js';
import { registerConnectorWebhooks } from './webhooks/index.js';
import { newCmdBatch } from './batch.js';
import { newCmdToken } from './token.js';
import { registerConnectorPush } from './push.js';
import { registerConnectorVerify } from './verify.js';

export function registerConnector(noun: Command, ctx: Context): void {
  registerConnectorUsers(noun, ctx);
  registerConnectorAccounts(noun, ctx);
  registerConnectorTransactions(noun, ctx);
  newCmdBatch(noun, ctx);
  newCmdToken(noun, ctx);
  registerConnectorPush(noun, ctx);
  registerConnectorVerify(noun, ctx);
  registerConnectorWebhooks(noun, ctx);
  examples(noun, [
    'bankctl connector users create --external-id alice --user-token-stdin --market SE < token.txt',
    'bankctl connector accounts push --user alice --file accounts.json',
    'bankctl connector push --user alice --file transactions.ndjson --checkpoint push.ckpt --verify',
  ]);
}
