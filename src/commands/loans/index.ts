// `loans`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdList } from './list.js';
import { newCmdAccounts } from './accounts.js';

export function registerLoans(noun: Command, ctx: Context): void {
  newCmdList(noun, ctx);
  newCmdAccounts(noun, ctx);
}
