// `providers`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdList } from './list.js';
import { newCmdGet } from './get.js';
import { newCmdMarkets } from './markets.js';

export function registerProviders(noun: Command, ctx: Context): void {
  newCmdList(noun, ctx);
  newCmdGet(noun, ctx);
  newCmdMarkets(noun, ctx);
}
