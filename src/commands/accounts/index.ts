import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerAccountsList } from './list.js';
import { registerAccountsUpdate } from './update.js';
import { registerAccountsBalances } from './balances.js';

export function registerAccounts(program: Command, ctx: Context): void {
  const accounts = program.command('accounts').description("the user's accounts: list, update, balances");
  registerAccountsList(accounts, ctx);
  registerAccountsUpdate(accounts, ctx);
  registerAccountsBalances(accounts, ctx);
}
