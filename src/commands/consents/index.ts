// `consents`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdList } from './list.js';
import { newCmdDelete } from './delete.js';
import { newCmdUpdateLink } from './update-link.js';
import { registerConsentsV2 } from './v2/index.js';

export function registerConsents(noun: Command, ctx: Context): void {
  newCmdList(noun, ctx);
  newCmdDelete(noun, ctx);
  newCmdUpdateLink(noun, ctx);
  registerConsentsV2(noun, ctx);
}
