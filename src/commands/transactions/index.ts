// `transactions`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdList } from './list.js';
import { newCmdReport } from './report.js';

export function registerTransactions(noun: Command, ctx: Context): void {
  newCmdList(noun, ctx);
  newCmdReport(noun, ctx);
}
