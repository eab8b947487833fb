import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { createOneOffBudget, createRecurringBudget, type CreateBudgetRequest } from '../../api/budgets.js';
import { UsageError } from '../../errors.js';
import { showBudget } from './list.js';
import { collect, examples } from '../util.js';
import { amountFlag, dateFlag, filterFlags, type FilterFlags } from './amounts.js';

export interface BudgetFlags extends FilterFlags {
  name?: string;
  amount?: string;
  currency?: string;
  start?: string;
  end?: string;
  period?: string;
  data?: string;
}

export function addFilterOptions(cmd: Command): Command {
  return cmd
    .option('--category <code>', 'expense category code, e.g. expenses:food.coffee (repeatable; any of them)', collect)
    .option('--account <id>', 'only this account (repeatable; any of them)', collect)
    .option('--tag <tag>', 'transactions tagged #tag (repeatable; any of them)', collect)
    .option('--text <words>', 'description contains these words')
    .option('--data <json>', 'extra request fields as JSON, merged over the flags (for fields the flags do not cover)');
}

/** --data merged over the body built from flags. */
export function withData<T extends object>(body: T, data: string | undefined): T {
  if (data === undefined) return body;
  let extra: unknown;
  try {
    extra = JSON.parse(data);
  } catch (err) {
    throw new UsageError(`--data is not valid JSON: ${(err as Error).message}`);
  }
  if (!extra || typeof extra !== 'object' || Array.isArray(extra)) throw new UsageError('--data must be a JSON object');
  return { ...body, ...(extra as object) };
}

export function registerBudgetsCreate(parent: Command, ctx: Context): void {
  const oneOff = addFilterOptions(
    parent
      .command('create-one-off')
      .description('create a budget for a date interval (POST /api/v1/budgets/one-off)')
      .requiredOption('--name <name>', 'budget name')
      .requiredOption('--amount <decimal>', 'target amount, exact, e.g. 5000 or 1499.50')
      .requiredOption('--currency <code>', "currency, the user's own (e.g. SEK)")
      .requiredOption('--start <date>', 'first day, YYYY-MM-DD (UTC) or epoch ms')
      .requiredOption('--end <date>', 'last day, YYYY-MM-DD (inclusive) or epoch ms'),
  ).action(async (o: BudgetFlags) => {
    const start = dateFlag(o.start!, '--start');
    const end = dateFlag(o.end!, '--end', true);
    if (start > end) throw new UsageError('--start is after --end');
    const req: CreateBudgetRequest = {
      name: o.name!,
      amount: amountFlag(o.amount!, o.currency!),
      filter: filterFlags(o) ?? {},
      oneOffPeriodicity: { start, end },
    };
    const b = await createOneOffBudget(await ctx.api(), withData(req, o.data));
    await showBudget(ctx, b);
  });
  examples(oneOff, [
    'bankctl budgets create-one-off --name "Summer trip" --amount 12000 --currency SEK --start 2026-06-01 --end 2026-08-31 --category expenses:travel',
    'bankctl budgets create-one-off --name Party --amount 2500.50 --currency SEK --start 2026-12-01 --end 2026-12-31 --tag party',
  ]);

  const recurring = addFilterOptions(
    parent
      .command('create-recurring')
      .description('create a budget that repeats every week, month or year (POST /api/v1/budgets/recurring)')
      .requiredOption('--name <name>', 'budget name')
      .requiredOption('--amount <decimal>', 'target amount per period, exact')
      .requiredOption('--currency <code>', "currency, the user's own (e.g. SEK)")
      .addOption(new Option('--period <unit>', 'period unit').choices(['WEEK', 'MONTH', 'YEAR']).default('MONTH')),
  ).action(async (o: BudgetFlags) => {
    const req: CreateBudgetRequest = {
      name: o.name!,
      amount: amountFlag(o.amount!, o.currency!),
      filter: filterFlags(o) ?? {},
      recurringPeriodicity: { periodUnit: o.period! },
    };
    const b = await createRecurringBudget(await ctx.api(), withData(req, o.data));
    await showBudget(ctx, b);
  });
  examples(recurring, [
    'bankctl budgets create-recurring --name Coffee --amount 400 --currency SEK --period WEEK --category expenses:food.coffee',
    'bankctl budgets create-recurring --name Food --amount 6000 --currency SEK --category expenses:food -o json | jq -r .id',
  ]);
}
