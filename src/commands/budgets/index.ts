import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerBudgetsList } from './list.js';
import { registerBudgetsCreate } from './create.js';
import { registerBudgetsUpdate } from './update.js';
import { registerBudgetsDetails } from './details.js';

export function registerBudgets(program: Command, ctx: Context): void {
  const budgets = program
    .command('budgets')
    .description('one-off and recurring budgets: spent against target (user token)');
  registerBudgetsList(budgets, ctx);
  registerBudgetsCreate(budgets, ctx);
  registerBudgetsDetails(budgets, ctx);
  registerBudgetsUpdate(budgets, ctx);
}
