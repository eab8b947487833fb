// Transactions v2 (spec 2.4, 4.7): pages as an async iterator. The next page is requested while the
// caller is still busy with the current one (at most two pages in memory), and a nextPageToken the
// walk was given before stops it (exit 7) instead of looping (api/paging.ts).
import { isUtf8 } from 'node:buffer';
import { EP } from '../contract/index.js';
import type { ExactAmountWire } from '../contract/decimal.js';
import { writeJson } from '../contract/exact-json.js';
import { decodeResponse, notWhatItReturns, type ApiClient } from './client.js';
import { endOfString, K_NEXT, K_TRANSACTIONS, memberName, named, skipValue } from './page-scan.js';
import { EmptyPages, nextPageTokenProblem, prefetchPages } from './paging.js';
import { listIn } from './shape.js';
import type { HttpResponse } from '../http/client.js';

export const TRANSACTION_STATUSES = ['BOOKED', 'PENDING', 'UNDEFINED'] as const;
export const MAX_PAGE_SIZE = 100;

export interface Transaction {
  id: string;
  accountId: string;
  amount: ExactAmountWire;
  categories?: { pfm?: { id?: string; name?: string } };
  dates?: { booked?: string; value?: string };
  descriptions?: { display?: string; original?: string };
  status?: string;
  [k: string]: unknown;
}

export interface TransactionPage {
  transactions: Transaction[];
  nextPageToken: string;
}

export interface TransactionFilter {
  accountIds?: string[];
  statuses?: string[];
  /** YYYY-MM-DD, inclusive */
  from?: string;
  to?: string;
  pageSize?: number;
}

export function transactionQuery(
  f: TransactionFilter,
  pageToken?: string,
): Record<string, string | string[] | number | undefined> {
  return {
    accountIdIn: f.accountIds && f.accountIds.length > 0 ? f.accountIds : undefined,
    statusIn: f.statuses && f.statuses.length > 0 ? f.statuses : undefined,
    bookedDateGte: f.from,
    bookedDateLte: f.to,
    pageSize: f.pageSize,
    pageToken: pageToken || undefined,
  };
}

/** One page; `all`: pages are being followed, so the page must say whether more follow (see checkedPage). */
export async function transactionPage(
  api: ApiClient,
  f: TransactionFilter,
  pageToken?: string,
  all = false,
): Promise<TransactionPage> {
  const res = await api.call<Partial<TransactionPage>>(EP.transactions.list, { query: transactionQuery(f, pageToken) });
  return checkedPage(res, all);
}

/**
 * A page must hold a transactions array and a string nextPageToken ("" on the last page): anything
 * else is not what the endpoint returns. A page without the token is taken as the last only when a
 * single page is read (!all); when pages are followed it would end the walk early without a word.
 */
function checkedPage(res: HttpResponse<Partial<TransactionPage> | undefined>, all: boolean): TransactionPage {
  const data = res.data;
  // a list of objects (null, 5 or "x" as an item is not a transaction: no empty row for it)
  const transactions = listIn<TransactionPage['transactions'][number]>(EP.transactions.list, res, 'transactions');
  const problem = nextPageTokenProblem(data?.nextPageToken, all);
  if (problem) throw notWhatItReturns(EP.transactions.list, res, problem, '');
  return { transactions, nextPageToken: data?.nextPageToken ?? '' };
}

const WHAT = `${EP.transactions.list.method} ${EP.transactions.list.path}`;

/** Every page from the first (or from `startToken`) to the last, or only the first when !all. */
export function transactionPages(
  api: ApiClient,
  f: TransactionFilter,
  o: { all: boolean; startToken?: string },
): AsyncGenerator<TransactionPage> {
  return prefetchPages((token) => transactionPage(api, f, token, o.all), {
    ...o,
    what: WHAT,
    size: (p) => p.transactions.length,
  });
}

/** A page kept as the service's bytes: its transactions as NDJSON (no parse and re-serialise). */
export interface RawTransactionPage {
  /** One compact JSON object per line, each ending in "\n", as UTF-8. */
  ndjson: Buffer;
  /** Where each line ends in ndjson (just past its "\n"). */
  ends: number[];
  nextPageToken: string;
}

const NEWLINE = 0x0a;
const RETURN = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/** The body's length less its trailing JSON whitespace. */
function endPastWhitespace(b: Buffer): number {
  let n = b.length;
  while (n > 0 && (b[n - 1] === NEWLINE || b[n - 1] === RETURN || b[n - 1] === 0x20 || b[n - 1] === 0x09)) n--;
  return n;
}

/** Past spaces and tabs (the only whitespace left once a body has no line break before its end). */
function blank(b: Buffer, i: number): number {
  while (b[i] === 0x20 || b[i] === 0x09) i++;
  return i;
}

/**
 * Splits a page {"transactions":[...],"nextPageToken":"..."} into the transactions' own text. The
 * whole body is checked as JSON on the way (page-scan.ts's checker: strings and their escapes,
 * numbers, literals, colons, commas, nothing after the value), so a body JSON.parse would refuse is
 * never split. Undefined when the body is not JSON, not UTF-8, not a page of that shape with
 * transaction objects written one after another ("},{"), has a line break before its end (pretty
 * printed), has no string nextPageToken, or one other than `expectedToken`: the caller then parses it
 * the ordinary way, which also says what is wrong. Only on success is the body changed: its
 * transactions array becomes NDJSON where it lies (the commas between items and the closing bracket
 * become newlines), so `ndjson` is a view of `body`.
 */
export function splitTransactionPageBytes(body: Buffer, expectedToken?: string): RawTransactionPage | undefined {
  const b = body;
  // the end, past trailing whitespace: a line break before it would break a transaction's line
  const n = endPastWhitespace(b);
  if (n < 2 || b[0] !== LBRACE || b[n - 1] !== RBRACE) return undefined;
  const lf = b.indexOf(NEWLINE);
  const cr = b.indexOf(RETURN);
  if ((lf >= 0 && lf < n) || (cr >= 0 && cr < n) || !isUtf8(b)) return undefined;
  let nextPageToken: string | undefined;
  let sawTransactions = false;
  let first = -1;
  // the comma or bracket after each item (to become its newline)
  const ends: number[] = [];
  let i = blank(b, 1);
  if (b[i] === RBRACE) return undefined; // {}: no transactions
  for (;;) {
    i = memberName(b, i);
    if (i < 0) return undefined;
    i = blank(b, i);
    if (named(b, K_TRANSACTIONS)) {
      if (sawTransactions || b[i] !== LBRACKET) return undefined;
      sawTransactions = true;
      first = ++i;
      if (b[i] === RBRACKET) i++;
      else
        for (;;) {
          // an object, right after "[" or ","; right before "," or "]"
          if (b[i] !== LBRACE) return undefined;
          i = skipValue(b, i, 2);
          if (i < 0) return undefined;
          const c = b[i++];
          ends.push(i - 1);
          if (c === RBRACKET) break;
          if (c !== COMMA) return undefined;
        }
    } else if (named(b, K_NEXT)) {
      // null, a number, ...: declined, and the ordinary reading says what is wrong
      if (nextPageToken !== undefined || b[i] !== QUOTE) return undefined;
      const e = endOfString(b, i);
      if (e < 0) return undefined;
      nextPageToken = JSON.parse(b.toString('utf8', i, e)) as string;
      i = e;
    } else {
      i = skipValue(b, i, 1);
      if (i < 0) return undefined;
    }
    i = blank(b, i);
    if (b[i] === COMMA) i++;
    else if (b[i] === RBRACE) break;
    else return undefined;
  }
  // the page's closing brace must be the end (nothing after the value)
  if (i !== n - 1 || !sawTransactions || nextPageToken === undefined) return undefined;
  // a token other than the one expected: declined before the body is touched, the caller parses
  if (expectedToken !== undefined && nextPageToken !== expectedToken) return undefined;
  for (const e of ends) b[e] = NEWLINE;
  const last = ends.length > 0 ? ends[ends.length - 1]! + 1 : first;
  return { ndjson: b.subarray(first, last), ends: ends.map((e) => e + 1 - first), nextPageToken };
}

/** The lines of a raw page, as strings (each ending in "\n"). */
export function ndjsonLines(page: Pick<RawTransactionPage, 'ndjson' | 'ends'>): string[] {
  const lines: string[] = [];
  let from = 0;
  for (const e of page.ends) {
    lines.push(page.ndjson.toString('utf8', from, e));
    from = e;
  }
  return lines;
}

const TOKEN_TAIL = Buffer.from('"nextPageToken":"');

/**
 * The nextPageToken of a compact page that ends with it ({...,"nextPageToken":"T"}, T with no
 * escapes), read from the last bytes alone, so the next page can be asked for before this one is
 * split. Undefined for any other layout (the split then finds the token).
 */
export function peekNextPageToken(b: Buffer): string | undefined {
  // a trailing line break (or other whitespace) is still the same page
  const n = endPastWhitespace(b);
  if (n < 20 || b[n - 1] !== 125 || b[n - 2] !== 34) return undefined;
  const at = b.lastIndexOf(TOKEN_TAIL, n - 2);
  if (at < 1 || (b[at - 1] !== 44 && b[at - 1] !== 123)) return undefined;
  const from = at + TOKEN_TAIL.length;
  for (let i = from; i < n - 2; i++) if (b[i] === 34 || b[i] === 92 || b[i]! < 32) return undefined;
  return b.toString('utf8', from, n - 2);
}

/** A page fetched, its token known (peeked or split), its lines taken once the caller is ready. */
export interface FetchedTransactionPage {
  nextPageToken: string;
  take(): RawTransactionPage;
}

function parsedRawPage(res: HttpResponse<Buffer>, all: boolean): RawTransactionPage {
  const page = checkedPage(
    { ...res, data: decodeResponse(EP.transactions.list, res) as Partial<TransactionPage> },
    all,
  );
  const lines = page.transactions.map((t) => Buffer.from(`${writeJson(t)}\n`));
  const ends: number[] = [];
  let at = 0;
  for (const l of lines) ends.push((at += l.length));
  return { ndjson: Buffer.concat(lines), ends, nextPageToken: page.nextPageToken };
}

async function rawPage(
  api: ApiClient,
  f: TransactionFilter,
  pageToken: string | undefined,
  all: boolean,
): Promise<FetchedTransactionPage> {
  const res = await api.bytes(EP.transactions.list, { query: transactionQuery(f, pageToken) });
  const peeked = peekNextPageToken(res.data);
  if (peeked === undefined) {
    // the token is known only once the page is read: read it now
    const page = splitTransactionPageBytes(res.data) ?? parsedRawPage(res, all);
    return { nextPageToken: page.nextPageToken, take: () => page };
  }
  // the next page is already on its way when the caller splits this one: the page must agree
  return {
    nextPageToken: peeked,
    take: () => {
      const page = splitTransactionPageBytes(res.data, peeked) ?? parsedRawPage(res, all);
      if (page.nextPageToken !== peeked)
        throw notWhatItReturns(EP.transactions.list, res, 'a nextPageToken other than the one at its end', res.data);
      return page;
    },
  };
}

/**
 * The empty-page count of a rawTransactionPages walk, for its caller: a raw page's size is known
 * only once the caller takes it.
 */
export const transactionEmptyPages = (): EmptyPages => new EmptyPages(WHAT);

/** Like transactionPages, for NDJSON output: each transaction's text as the service sent it. */
export function rawTransactionPages(
  api: ApiClient,
  f: TransactionFilter,
  o: { all: boolean; startToken?: string },
): AsyncGenerator<FetchedTransactionPage> {
  return prefetchPages((token) => rawPage(api, f, token, o.all), { ...o, what: WHAT });
}
