// `investments`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdList } from './list.js';
import { newCmdAccounts } from './accounts.js';
import { newCmdHoldings } from './holdings.js';

export function registerInvestments(noun: Command, ctx: Context): void {
  newCmdList(noun, ctx);
  newCmdAccounts(noun, ctx);
  newCmdHoldings(noun, ctx);
}
