// `connector accounts`: push, update and delete a connector user's accounts.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { examples } from '../../util.js';
import { newCmdPush } from './push.js';
import { newCmdUpdate } from './update.js';
import { newCmdDelete } from './delete.js';

export function registerConnectorAccounts(connector: Command, ctx: Context): void {
  const accounts = connector.command('accounts').description("push, update and delete a connector user's accounts");
  newCmdPush(accounts, ctx);
  newCmdUpdate(accounts, ctx);
  newCmdDelete(accounts, ctx);
  examples(accounts, [
    'bankctl connector accounts push --user alice --file accounts.json',
    'bankctl connector accounts update acc-1 --user alice --closed',
  ]);
}
