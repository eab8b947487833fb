// `insights`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdList } from './list.js';
import { newCmdArchived } from './archived.js';
import { newCmdAction } from './action.js';
import { newCmdArchive } from './archive.js';

export function registerInsights(noun: Command, ctx: Context): void {
  newCmdList(noun, ctx);
  newCmdArchived(noun, ctx);
  newCmdAction(noun, ctx);
  newCmdArchive(noun, ctx);
}
