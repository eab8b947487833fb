import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerTransactionsList } from './list.js';

export function registerTransactions(program: Command, ctx: Context): void {
  const tx = program.command('transactions').description("the user's transactions (v2), streamed page after page");
  registerTransactionsList(tx, ctx);
}
