// `statistics`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdQuery } from './query.js';

export function registerStatistics(noun: Command, ctx: Context): void {
  newCmdQuery(noun, ctx);
}
