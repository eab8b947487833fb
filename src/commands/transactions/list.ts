// `transactions list`: the user's transactions, page after page, streamed with flat memory.
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import type { Context } from '../../context.js';
import {
  MAX_PAGE_SIZE,
  rawTransactionPages,
  ndjsonLines,
  transactionEmptyPages,
  TRANSACTION_STATUSES,
  transactionPages,
  type TransactionFilter,
} from '../../api/transactions.js';
import { V2_TRANSACTION_FIELDS } from '../../contract/item-fields.js';
import { UsageError } from '../../errors.js';
import { cellText, getPath, StreamWriter, type Column } from '../../output/render.js';
import { collect, examples, morePages, parseIntArg, splitList, type Run } from '../util.js';
import { amountCell } from '../accounts/format.js';
import { streamingHeap } from '../../heap.js';

interface Flags {
  account?: string[];
  status?: string[];
  from?: string;
  to?: string;
  pageSize?: string;
  pageToken?: string;
  all?: boolean;
  limit?: string;
}

/** More than any user holds: a larger --limit is a typo, not a wish. */
const MAX_LIMIT = 100_000_000;

export const TRANSACTION_COLUMNS: Column[] = [
  // dates and the display text are optional: the booked instant, the bank's own text then
  { header: 'date', path: 'dates.booked', alt: 'bookedDateTime' },
  { header: 'description', path: 'descriptions.display', alt: 'descriptions.original' },
  { header: 'amount', path: 'amount', format: (v) => amountCell(v), money: true },
  { header: 'status', path: 'status' },
  // the service no longer fills pfm.name (the reference: deprecated, not populated): its id then.
  // Computed (path ''), so that --fields categories.pfm.name still shows that field as sent
  {
    header: 'category',
    path: '',
    format: (_v, t) => cellText(getPath(t, 'categories.pfm.name') || getPath(t, 'categories.pfm.id')),
  },
  { header: 'account', path: 'accountId' },
  { header: 'id', path: 'id' },
];

/** A real calendar date YYYY-MM-DD, else a UsageError naming the flag. */
export function isoDateFlag(v: string | undefined, flag: string): string | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (m) {
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    if (d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]))
      return v;
  }
  throw new UsageError(`${flag} must be a real date YYYY-MM-DD, got "${v}"`);
}

export interface ListOptions {
  filter: TransactionFilter;
  /** Follow nextPageToken to the end (also with --limit, which stops early). */
  all: boolean;
  limit?: number;
  pageToken?: string;
}

export function filterFromFlags(o: Flags): { filter: TransactionFilter; all: boolean; limit?: number } {
  const statuses = splitList(o.status, '--status').map((s) => s.toUpperCase());
  for (const s of statuses) {
    if (!(TRANSACTION_STATUSES as readonly string[]).includes(s))
      throw new UsageError(`--status must be one of ${TRANSACTION_STATUSES.join(', ')}, got "${s}"`);
  }
  const from = isoDateFlag(o.from, '--from');
  const to = isoDateFlag(o.to, '--to');
  if (from && to && from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  const pageSize = parseIntArg(o.pageSize, '--page-size', { min: 1, max: MAX_PAGE_SIZE });
  const limit = parseIntArg(o.limit, '--limit', { min: 1, max: MAX_LIMIT });
  if (o.all && limit !== undefined) throw new UsageError('--all and --limit cannot be combined');
  const all = Boolean(o.all) || limit !== undefined;
  return {
    filter: {
      accountIds: splitList(o.account, '--account'),
      statuses,
      from,
      to,
      pageSize: pageSize ?? (limit !== undefined ? Math.min(limit, MAX_PAGE_SIZE) : undefined),
    },
    all,
    limit,
  };
}

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description('list transactions (GET /data/v2/transactions, transactions:read); amounts are exact decimals')
    .option('--account <id>', 'only this account (repeatable)', collect)
    .option('--status <status>', `only this status (repeatable): ${TRANSACTION_STATUSES.join(', ')}`, collect)
    .option('--from <date>', 'earliest booked date, YYYY-MM-DD (default: the earliest transaction)')
    .option('--to <date>', 'latest booked date, YYYY-MM-DD (default: today)')
    .option('--page-size <n>', `items per page, at most ${MAX_PAGE_SIZE}`)
    .option('--page-token <token>', 'start at this page (a nextPageToken; "" is the first page)')
    .option('--all', 'follow nextPageToken to the last page, streaming with constant memory')
    .option('--limit <n>', 'stop after n transactions (follows pages as needed)')
    .action(async (o: Flags) => run(ctx, { ...filterFromFlags(o), pageToken: o.pageToken }));
  completeOption(cmd, '--status', () => TRANSACTION_STATUSES);
  return examples(cmd, [
    'bankctl transactions list --user $USER_ID',
    'bankctl transactions list --account $ACC1 --account $ACC2 --status BOOKED --from 2025-01-01 --to 2025-03-31',
    'bankctl transactions list --all -o ndjson > transactions.ndjson',
    'bankctl transactions list --limit 250 -o csv > latest.csv',
  ]);
}

export async function listRun(ctx: Context, o: ListOptions): Promise<void> {
  const { filter, all, limit } = o;
  const api = await ctx.api();
  const format = await ctx.outputFormat();
  const writer = new StreamWriter(ctx, format, { columns: TRANSACTION_COLUMNS, declared: V2_TRANSACTION_FIELDS });
  const tty = ctx.io.stdoutIsTTY;
  let written = 0;
  let next = '';
  /** --limit stopped inside a page: more transactions there, which no page token reaches. */
  let cut = false;
  if (format === 'ndjson' && !tty) {
    // NDJSON to a pipe or file: each transaction's own text, no parse and re-serialise
    streamingHeap();
    // the pages' sizes are known once taken (transactionPages counts its own)
    const empty = transactionEmptyPages();
    for await (const fetched of rawTransactionPages(api, filter, { all, startToken: o.pageToken })) {
      const page = fetched.take();
      next = page.nextPageToken;
      if (all) empty.note(page.ends.length, next);
      const count = limit !== undefined ? Math.min(page.ends.length, limit - written) : page.ends.length;
      const bytes = page.ndjson.subarray(0, count > 0 ? page.ends[count - 1] : 0);
      await writer.writeNdjson(bytes, count, () => ndjsonLines({ ndjson: bytes, ends: page.ends.slice(0, count) }));
      written += count;
      if (limit !== undefined && written >= limit) {
        cut = count < page.ends.length;
        break;
      }
    }
  } else {
    for await (const page of transactionPages(api, filter, { all, startToken: o.pageToken })) {
      next = page.nextPageToken;
      const items = limit !== undefined ? page.transactions.slice(0, limit - written) : page.transactions;
      // one write per page, waiting for the stream to drain (back-pressure): memory stays flat
      await writer.writeMany(items);
      written += items.length;
      if (limit !== undefined && written >= limit) {
        cut = items.length < page.transactions.length;
        break;
      }
    }
  }
  await writer.end();
  if (!all && next) morePages(ctx, 'transactions', next);
  // --limit follows pages (all) and stops early: said as one page's end is (also with -q), or
  // `--limit 250 -o csv > latest.csv` read as every transaction there is. Stopped at a page's end,
  // the service's nextPageToken says whether more exist and reaches them; inside a page, the rest
  // of that page is there and no token starts at it.
  else if (limit !== undefined && written >= limit && (cut || next)) {
    morePages(ctx, 'transactions', cut ? undefined : next, limit);
  }
}
