// `budgets recommended`: budgets the service suggests from the user's spending.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { recommendedBudgets, type Budget } from '../../api/budgets.js';
import { render } from '../../output/render.js';
import { RECOMMENDED_BUDGET_FIELDS } from '../../contract/item-fields.js';
import { examples, type Run } from '../util.js';
import { denominatedText, filterText } from './amounts.js';

export type RecommendedOptions = Record<string, never>;

export function newCmdRecommended(
  parent: Command,
  ctx: Context,
  run: Run<RecommendedOptions> = recommendedRun,
): Command {
  const cmd = parent
    .command('recommended')
    .description('budgets recommended from your spending patterns (GET /api/v1/budgets/recommended)')
    .action(async () => run(ctx, {}));
  return examples(cmd, [
    'bankctl budgets recommended --user $USER_ID',
    'bankctl budgets recommended -o json | jq ".[0]"',
  ]);
}

export async function recommendedRun(ctx: Context): Promise<void> {
  const list = await recommendedBudgets(await ctx.api());
  await render(ctx, list, {
    columns: [
      { header: 'name', path: 'name' },
      { header: 'amount', path: 'amount', format: (v) => denominatedText(v as Budget['amount']), money: true },
      { header: 'per', path: 'recurringPeriodicity.periodUnit' },
      {
        header: 'average spent',
        path: 'averageSpentAmount',
        format: (v) => denominatedText(v as Budget['amount']),
        money: true,
      },
      { header: 'filter', path: 'filter', format: (v) => filterText(v as Budget['filter']) },
    ],
    declared: RECOMMENDED_BUDGET_FIELDS,
  });
}
