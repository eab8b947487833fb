// `reports`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdCreate } from './create.js';
import { newCmdGet } from './get.js';
import { newCmdPdf } from './pdf.js';

export function registerReports(noun: Command, ctx: Context): void {
  newCmdCreate(noun, ctx);
  newCmdGet(noun, ctx);
  newCmdPdf(noun, ctx);
}
