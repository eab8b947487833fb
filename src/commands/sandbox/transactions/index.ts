import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { newCmdAdd } from './add.js';

// `sandbox transactions`: new transactions on bank-connected accounts.
export function registerSandboxTransactions(parent: Command, ctx: Context): void {
  const noun = parent.command('transactions').description('new transactions on bank-connected accounts (sandbox only)');
  newCmdAdd(noun, ctx);
}
