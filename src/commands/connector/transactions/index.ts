// `connector transactions`: delete or update pushed transactions.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { examples } from '../../util.js';
import { newCmdDelete } from './delete.js';
import { newCmdUpdate } from './update.js';

export function registerConnectorTransactions(connector: Command, ctx: Context): void {
  const tx = connector.command('transactions').description('delete or update pushed transactions');
  newCmdDelete(tx, ctx);
  newCmdUpdate(tx, ctx);
  examples(tx, [
    'bankctl connector transactions delete --user alice --account acc-1 --balance 950.25 --transaction tx-17',
    'bankctl connector transactions update tx-1 --user alice --file booked.json',
  ]);
}
