// `connector users`: activate, update and delete connector users.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { examples } from '../../util.js';
import { newCmdCreate } from './create.js';
import { newCmdUpdate } from './update.js';
import { newCmdDelete } from './delete.js';

export function registerConnectorUsers(connector: Command, ctx: Context): void {
  const users = connector.command('users').description('activate, update and delete connector users');
  newCmdCreate(users, ctx);
  newCmdUpdate(users, ctx);
  newCmdDelete(users, ctx);
  examples(users, [
    'bankctl connector users create --external-id alice --user-token-stdin --market SE < token.txt',
    'bankctl connector users delete alice',
  ]);
}
