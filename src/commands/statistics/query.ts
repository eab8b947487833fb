// `statistics query --type T --resolution R`: statistics per period; a bar chart per type on a table.
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import {
  incompatibleTypes,
  queryStatistics,
  RESOLUTIONS,
  STATISTIC_RESOLUTIONS,
  STATISTIC_TYPES,
  type Statistic,
  type StatisticQuery,
} from '../../api/statistics.js';
import { ServerError, UsageError } from '../../errors.js';
import { ExactNumber, writeJson } from '../../contract/exact-json.js';
import { decimalText } from '../../contract/decimal.js';
import { preview } from '../../api/client.js';
import { decimalString, visibleCode } from '../../output/money.js';
import { render } from '../../output/render.js';
import { collect, examples, splitList, type Run } from '../util.js';
import { bar, compareDecimal, maxDecimal } from './bars.js';

/**
 * The exact value of a statistic: the sandbox's exact amount, else the number as the JSON wrote it
 * (an ExactNumber for "1.10", "1200.00" or more digits than a double holds). A value that is not a
 * number is the service's fault (exit 7), never a 0 shown in its place.
 */
export function statValue(s: Statistic): string {
  if (s.amount?.value) return decimalString(s.amount.value.unscaledValue, s.amount.value.scale);
  const v: unknown = s.value;
  if (v instanceof ExactNumber) return decimalText(v.text);
  if (typeof v === 'number' && Number.isFinite(v)) return decimalText(String(v));
  throw new ServerError(
    `POST /api/v1/statistics/query answered a statistic whose value is ${v === undefined ? 'missing' : `not a number (${preview(writeJson(v), 40)})`}`,
    { hint: 'the service answered something that is not what the endpoint returns' },
  );
}

/**
 * A statistic's value as the table and csv show it: with its currency when the answer gives one (the
 * sandbox's exact amount; the Swagger's Statistics has a bare number, a count or an amount alike).
 */
function statCell(s: Statistic): string {
  const v = statValue(s);
  const code = s.amount?.currencyCode;
  return typeof code === 'string' && code !== '' ? `${v} ${visibleCode(code)}` : v;
}

/** The value column: money (csv's value and currency columns), the currency empty where none is given. */
const VALUE_COLUMN = {
  header: 'value',
  path: '',
  format: (_v: unknown, s: unknown) => statCell(s as Statistic),
  money: true,
};

export type QueryOptions = StatisticQuery;

interface Flags {
  type: string[];
  resolution: string;
  description?: string[];
  period?: string[];
  pad?: boolean;
}

export function newCmdQuery(parent: Command, ctx: Context, run: Run<QueryOptions> = queryRun): Command {
  const cmd = parent
    .command('query')
    .description(
      'query statistics (POST /api/v1/statistics/query); types and resolution are checked against spec 2.7 before sending',
    )
    .requiredOption(
      '--type <type>',
      `statistics type (repeatable or comma-separated): ${STATISTIC_TYPES.join(', ')}`,
      collect,
    )
    .addOption(new Option('--resolution <r>', 'period size').choices(RESOLUTIONS).makeOptionMandatory())
    .option('--description <id>', 'only this category, account, group or date (repeatable; any of them)', collect)
    .option('--period <p>', 'only this period: YYYY, YYYY-MM, YYYY:WW or YYYY-MM-DD (repeatable; any of them)', collect)
    .option('--pad', 'fill the result up to the period of today (padResultUntilToday)')
    .action(async (o: Flags) => run(ctx, queryFromFlags(o)));
  return examples(cmd, [
    'bankctl statistics query --type expenses-by-primary-category --resolution MONTHLY --period 2026',
    'bankctl statistics query --type income-and-expenses --resolution YEARLY',
    'bankctl statistics query --type balances-by-account --resolution MONTHLY_ADJUSTED --pad -o json',
    'bankctl statistics query --type expenses-by-category/by-count --resolution WEEKLY --description 575d2a0b3e276164084ef0954b0a5549',
  ]);
}

/** The query the flags describe, checked against the types and resolutions of spec 2.7. */
function queryFromFlags(o: Flags): QueryOptions {
  // a type or description given twice is asked once: each is a query's worth of rows, and the
  // same rows twice would be summed twice by anyone adding them up
  const types = [...new Set(splitList(o.type, '--type'))];
  const unknown = types.filter((t) => !STATISTIC_TYPES.includes(t));
  if (unknown.length)
    throw new UsageError(`--type: unknown statistics type "${unknown[0]}"`, {
      hint: `one of ${STATISTIC_TYPES.join(', ')}`,
    });
  const bad = incompatibleTypes(types, o.resolution);
  if (bad.length) {
    throw new UsageError(`--resolution ${o.resolution} is not available for ${bad.join(', ')}`, {
      hint: bad.map((t) => `${t}: ${STATISTIC_RESOLUTIONS[t]!.join(', ')}`).join('; '),
    });
  }
  const periods = splitList(o.period, '--period');
  for (const p of periods)
    if (!/^\d{4}(-\d{2}(-\d{2})?|:\d{2})?$/.test(p) || !realPeriod(p))
      throw new UsageError(`--period "${p}" must be YYYY, YYYY-MM, YYYY:WW or YYYY-MM-DD, a real one`);
  for (const p of periods) {
    const kind = periodKind(p);
    if (!HOLDS[o.resolution]?.includes(kind))
      throw new UsageError(
        `--period ${p} is a ${kind}: with --resolution ${o.resolution} every statistic is a ${HOLDS[o.resolution]!.at(-1)}, so none would match`,
        { hint: `with --resolution ${o.resolution} give a ${HOLDS[o.resolution]!.join(' or a ')}` },
      );
  }
  const descriptions = [...new Set(splitList(o.description, '--description'))];
  return {
    types,
    resolution: o.resolution,
    ...(descriptions.length ? { description: descriptions.length === 1 ? descriptions[0]! : descriptions } : {}),
    ...(periods.length ? { periods } : {}),
    padResultUntilToday: Boolean(o.pad),
  };
}

export async function queryRun(ctx: Context, q: QueryOptions): Promise<void> {
  const api = await ctx.api();
  // the reference's StatisticQuery takes one description (a string): several are a query each,
  // their answers one list (a statistic has one description, so none is counted twice)
  const result = Array.isArray(q.description)
    ? (await Promise.all(q.description.map((d) => queryStatistics(api, { ...q, description: d })))).flat()
    : await queryStatistics(api, q);
  if ((await ctx.outputFormat()) !== 'table') {
    await render(ctx, result, {
      columns: [
        { header: 'type', path: 'type' },
        { header: 'period', path: 'period' },
        { header: 'description', path: 'description' },
        { header: 'payload', path: 'payload' },
        VALUE_COLUMN,
      ],
    });
    return;
  }
  await renderChart(ctx, q.types, result);
}

/** A value's size: the reference's expenses are negative (-1298.5), the sandbox's positive. */
const magnitude = (v: string): string => (v.startsWith('-') ? v.slice(1) : v);
const sizeOf = (s: Statistic): string => magnitude(statValue(s));

/** A bar chart per type, scaled to that type's largest value; within a period the largest first (by size). */
async function renderChart(ctx: Context, types: string[], result: Statistic[]): Promise<void> {
  const max = new Map<string, string>();
  for (const t of types) max.set(t, maxDecimal(result.filter((s) => s.type === t).map(sizeOf)));
  const width = Math.max(10, Math.min(40, (ctx.io.columns ?? 100) - 80));
  const rows = [...result].sort(
    (a, b) =>
      types.indexOf(a.type) - types.indexOf(b.type) ||
      (a.period < b.period ? -1 : a.period > b.period ? 1 : 0) ||
      compareDecimal(sizeOf(b), sizeOf(a)),
  );
  await render(ctx, rows, {
    columns: [
      ...(types.length > 1 ? [{ header: 'type', path: 'type' }] : []),
      { header: 'period', path: 'period' },
      // the description is what the row is about (a category id, an account, a group, a date); the
      // payload, a secondary identifier (the sandbox's category code), follows it in parentheses
      {
        header: 'what',
        path: '',
        format: (_v: unknown, s: unknown) => {
          const { description, payload } = s as Statistic;
          return payload ? `${description} (${payload})` : description;
        },
      },
      VALUE_COLUMN,
      {
        header: 'chart',
        path: '',
        format: (_v: unknown, s: unknown) => bar(sizeOf(s as Statistic), max.get((s as Statistic).type) ?? '0', width),
      },
    ],
  });
}

type PeriodKind = 'year' | 'month' | 'week' | 'day';
const periodKind = (p: string): PeriodKind =>
  p.includes(':') ? 'week' : p.length === 4 ? 'year' : p.length === 7 ? 'month' : 'day';
/**
 * The periods that can match a statistic of each resolution: one that holds it (a year holds its
 * months, weeks and days; a month its days), or, last, its own kind: what one statistic's period is
 * (`2014`, `2014-02`, `2014:45`, `2014-02-12`). A day with MONTHLY, or a week with MONTHLY, matched
 * nothing and was an empty answer with exit 0.
 */
const HOLDS: Record<string, PeriodKind[]> = {
  YEARLY: ['year'],
  MONTHLY: ['year', 'month'],
  MONTHLY_ADJUSTED: ['year', 'month'],
  WEEKLY: ['year', 'week'],
  DAILY: ['year', 'month', 'day'],
};

/** A month 01-12, a week 01-53, a day that is in the calendar (2026-13 matched nothing, with exit 0). */
function realPeriod(p: string): boolean {
  const week = /^\d{4}:(\d{2})$/.exec(p);
  if (week) return Number(week[1]) >= 1 && Number(week[1]) <= 53;
  const [y, m, d] = p.split('-').map(Number);
  if (m === undefined) return true;
  if (m < 1 || m > 12) return false;
  if (d === undefined) return true;
  const date = new Date(Date.UTC(y!, m - 1, d));
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
