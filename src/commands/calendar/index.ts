// `calendar`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdPeriods } from './periods.js';
import { newCmdPeriod } from './period.js';

export function registerCalendar(noun: Command, ctx: Context): void {
  newCmdPeriods(noun, ctx);
  newCmdPeriod(noun, ctx);
}
