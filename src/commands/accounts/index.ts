// `accounts`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdList } from './list.js';
import { newCmdUpdate } from './update.js';
import { newCmdBalances } from './balances.js';
import { newCmdGet } from './get.js';
import { newCmdParties } from './parties.js';

export function registerAccounts(noun: Command, ctx: Context): void {
  newCmdList(noun, ctx);
  newCmdUpdate(noun, ctx);
  newCmdBalances(noun, ctx);
  newCmdGet(noun, ctx);
  newCmdParties(noun, ctx);
}
