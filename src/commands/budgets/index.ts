// `budgets`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdList } from './list.js';
import { newCmdSummaries } from './summaries.js';
import { newCmdCreateOneOff } from './create-one-off.js';
import { newCmdCreateRecurring } from './create-recurring.js';
import { newCmdDetails } from './details.js';
import { newCmdTransactions } from './transactions.js';
import { newCmdRecommended } from './recommended.js';
import { newCmdUpdate } from './update.js';
import { newCmdDelete } from './delete.js';
import { newCmdArchive } from './archive.js';

export function registerBudgets(noun: Command, ctx: Context): void {
  newCmdList(noun, ctx);
  newCmdSummaries(noun, ctx);
  newCmdCreateOneOff(noun, ctx);
  newCmdCreateRecurring(noun, ctx);
  newCmdDetails(noun, ctx);
  newCmdTransactions(noun, ctx);
  newCmdRecommended(noun, ctx);
  newCmdUpdate(noun, ctx);
  newCmdDelete(noun, ctx);
  newCmdArchive(noun, ctx);
}
