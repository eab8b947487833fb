// `accounts list --v2`: GET /data/v2/accounts (accounts:read) with its filters (typesIn, idIn) and
// paging by nextPageToken, streamed a page at a time with flat memory.
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import type { Context } from '../../context.js';
import { EP } from '../../contract/index.js';
import { V2_ACCOUNT_FIELDS } from '../../contract/item-fields.js';
import { MAX_V2_PAGE_SIZE, pages, V2_ACCOUNT_TYPES } from '../../api/data-v2.js';
import { UsageError } from '../../errors.js';
import { StreamWriter, type Column } from '../../output/render.js';
import { collect, morePages, parseIntArg, splitList } from '../util.js';
import { moneyCol } from './v2-cells.js';

export const V2_ACCOUNT_COLUMNS: Column[] = [
  { header: 'id', path: 'id' },
  { header: 'name', path: 'name' },
  { header: 'type', path: 'type' },
  // every identifier is optional: the bank's own number, else the IBAN, a UK account, a card
  {
    header: 'number',
    path: 'identifiers.financialInstitution.accountNumber',
    alt: ['identifiers.iban.iban', 'identifiers.sortCode.accountNumber', 'identifiers.pan.masked'],
  },
  moneyCol('booked', 'balances.booked.amount'),
  moneyCol('available', 'balances.available.amount'),
  { header: 'refreshed', path: 'dates.lastRefreshed' },
];

export interface ListV2Options {
  types: string[];
  ids: string[];
  pageSize?: number;
  pageToken?: string;
  all: boolean;
}

export interface V2Flags {
  v2?: boolean;
  type?: string[];
  id?: string[];
  pageSize?: string;
  pageToken?: string;
  all?: boolean;
}

/** The --v2 flags of `accounts list`. */
export function addV2Flags(cmd: Command): Command {
  completeOption(cmd, '--type', () => V2_ACCOUNT_TYPES);
  return cmd
    .option('--v2', 'read GET /data/v2/accounts (exact balances, filters, paging) instead of the v1 list')
    .option('--type <type>', `with --v2: only this type (repeatable): ${V2_ACCOUNT_TYPES.join(', ')}`, collect)
    .option('--id <id>', 'with --v2: only this account (repeatable)', collect)
    .option('--page-size <n>', `with --v2: accounts per page, at most ${MAX_V2_PAGE_SIZE}`)
    .option('--page-token <token>', 'with --v2: start at this page (a nextPageToken; "" is the first page)')
    .option('--all', 'with --v2: follow nextPageToken to the last page');
}

/** The v2 options, or undefined for the v1 list (a v2-only flag without --v2 is a usage error). */
export function v2FromFlags(o: V2Flags): ListV2Options | undefined {
  const used = ['type', 'id', 'pageSize', 'pageToken', 'all'].filter((k) => o[k as keyof V2Flags] !== undefined);
  if (!o.v2) {
    if (used.length > 0)
      throw new UsageError(`--${used[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} needs --v2`);
    return undefined;
  }
  const types = splitList(o.type, '--type').map((t) => t.toUpperCase());
  for (const t of types)
    if (!(V2_ACCOUNT_TYPES as readonly string[]).includes(t))
      throw new UsageError(`--type must be one of ${V2_ACCOUNT_TYPES.join(', ')}, got "${t}"`);
  return {
    types,
    ids: splitList(o.id, '--id'),
    pageSize: parseIntArg(o.pageSize, '--page-size', { min: 1, max: MAX_V2_PAGE_SIZE }),
    pageToken: o.pageToken,
    all: Boolean(o.all),
  };
}

export async function listV2Run(ctx: Context, o: ListV2Options): Promise<void> {
  const api = await ctx.api();
  const writer = new StreamWriter(ctx, await ctx.outputFormat(), {
    columns: V2_ACCOUNT_COLUMNS,
    declared: V2_ACCOUNT_FIELDS,
  });
  let next = '';
  const read = {
    ep: EP.accounts.listV2,
    key: 'accounts',
    query: { typesIn: o.types.length ? o.types : undefined, idIn: o.ids.length ? o.ids : undefined },
    pageSize: o.pageSize,
  };
  for await (const page of pages(api, read, { all: o.all, startToken: o.pageToken })) {
    next = page.nextPageToken;
    await writer.writeMany(page.items);
  }
  await writer.end();
  if (!o.all && next) morePages(ctx, 'accounts', next);
}
