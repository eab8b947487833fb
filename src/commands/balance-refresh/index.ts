// `balance-refresh`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdCreate } from './create.js';
import { newCmdStatus } from './status.js';

export function registerBalanceRefresh(noun: Command, ctx: Context): void {
  newCmdCreate(noun, ctx);
  newCmdStatus(noun, ctx);
}
