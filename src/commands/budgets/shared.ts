// What the budget verbs share: the filter flags, --data, and the columns of a budget.
import type { Command } from 'commander';
import type { Budget } from '../../api/budgets.js';
import { UsageError } from '../../errors.js';
import type { Column } from '../../output/render.js';
import { collect } from '../util.js';
import { BUDGET_FIELDS } from '../../contract/item-fields.js';
import { denominatedText, filterText, isoDay, type FilterFlags } from './amounts.js';
import { readJson } from '../../contract/exact-json.js';

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
    // exactly: JSON.parse would send 12345678901234567891 as 12345678901234567000
    extra = readJson(data);
  } catch (err) {
    throw new UsageError(`--data is not valid JSON: ${(err as Error).message}`);
  }
  if (!extra || typeof extra !== 'object' || Array.isArray(extra)) throw new UsageError('--data must be a JSON object');
  return { ...body, ...(extra as object) };
}

export function periodicityText(b: Budget): string {
  if (b.periodicityType === 'RECURRING')
    return `every ${String(b.recurringPeriodicity?.periodUnit ?? '?').toLowerCase()}`;
  return `${isoDay(b.oneOffPeriodicity?.start)} to ${isoDay(b.oneOffPeriodicity?.end)}`;
}

/** A budget as `budgets list` shows it (csv: the target as its decimal and currency). */
const BUDGET_COLUMNS: Column[] = [
  { header: 'id', path: 'id' },
  { header: 'name', path: 'name' },
  { header: 'target', path: 'amount', format: (v) => denominatedText(v as Budget['amount']), money: true },
  { header: 'period', path: '', format: (_v, b) => periodicityText(b as Budget) },
  { header: 'filter', path: 'filter', format: (v) => filterText(v as Budget['filter']) },
  { header: 'archived', path: 'archived' },
];

/**
 * The list's columns and the fields --fields takes on any answer; one budget (create, update,
 * archive) is shown through them by renderOne: the list's row in csv, a line a column in a table.
 */
export const BUDGET_VIEW = { columns: BUDGET_COLUMNS, declared: BUDGET_FIELDS };
