// `transfers`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdCreate } from './create.js';

export function registerTransfers(noun: Command, ctx: Context): void {
  newCmdCreate(noun, ctx);
}
