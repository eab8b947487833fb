// Transactions v2 (spec 2.4, 4.7): pages as an async iterator. The next page is requested while the
// caller is still busy with the current one (at most two pages in memory), and a nextPageToken that
// comes back twice stops the walk instead of looping.
import { isUtf8 } from 'node:buffer';
import { EP } from '../contract/index.js';
import type { ExactAmountWire } from '../contract/decimal.js';
import { writeJson } from '../contract/exact-json.js';
import { decodeResponse, notWhatItReturns, type ApiClient } from './client.js';
import { prefetchPages } from './paging.js';
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

export async function transactionPage(
  api: ApiClient,
  f: TransactionFilter,
  pageToken?: string,
): Promise<TransactionPage> {
  const res = await api.call<Partial<TransactionPage>>(EP.transactions.list, { query: transactionQuery(f, pageToken) });
  return checkedPage(res);
}

/** A page must hold a transactions array: anything else is not what the endpoint returns. */
function checkedPage(res: HttpResponse<Partial<TransactionPage> | undefined>): TransactionPage {
  const data = res.data;
  if (!data || !Array.isArray(data.transactions))
    throw notWhatItReturns(EP.transactions.list, res, 'no transactions list', '');
  return {
    transactions: data.transactions,
    nextPageToken: typeof data.nextPageToken === 'string' ? data.nextPageToken : '',
  };
}

/** Every page from the first (or from `startToken`) to the last, or only the first when !all. */
export function transactionPages(
  api: ApiClient,
  f: TransactionFilter,
  o: { all: boolean; startToken?: string },
): AsyncGenerator<TransactionPage> {
  return prefetchPages((token) => transactionPage(api, f, token), o);
}

/** A page kept as the service's bytes: its transactions as NDJSON (no parse and re-serialise). */
export interface RawTransactionPage {
  /** One compact JSON object per line, each ending in "\n", as UTF-8. */
  ndjson: Buffer;
  /** Where each line ends in ndjson (just past its "\n"). */
  ends: number[];
  nextPageToken: string;
}

// Bytes a compact JSON document may hold outside strings.
const STRUCTURAL = new Uint8Array(256);
for (const c of '{}[]:,0123456789-+.eEtrufalsn') STRUCTURAL[c.charCodeAt(0)] = 1;
const NEWLINE = 0x0a;

/**
 * Splits a compact page {"transactions":[...],"nextPageToken":"..."} into the transactions' own text,
 * tracking strings and depth over the body's bytes. Undefined when the body is not a compact page of
 * that shape (pretty printed, another layout, stray bytes), not UTF-8, or its nextPageToken is not
 * `expectedToken`: the caller then parses it the ordinary way. Only on success is the body changed:
 * its transactions array becomes NDJSON where it lies (the commas between items and the closing
 * bracket become newlines), so `ndjson` is a view of `body`.
 */
export function splitTransactionPageBytes(body: Buffer, expectedToken?: string): RawTransactionPage | undefined {
  if (!isUtf8(body)) return undefined;
  const b = body;
  const n = b.length;
  let i = 0;
  let depth = 0;
  let key: string | undefined;
  let expectKey = false;
  let nextPageToken: string | undefined;
  let sawTransactions = false;
  let inTransactions = false;
  let first = -1;
  // where each item starts, and the comma or bracket after each (to become its newline)
  const starts: number[] = [];
  const ends: number[] = [];
  while (i < n) {
    const c = b[i]!;
    if (c === 34) {
      // a string: find its end (bytes of multi-byte characters are >= 0x80, never a quote or backslash)
      const s = i;
      i++;
      while (i < n) {
        const d = b[i]!;
        if (d === 92) i += 2;
        else if (d === 34) break;
        else if (d < 32) return undefined;
        else i++;
      }
      if (i >= n) return undefined;
      i++;
      if (depth === 1 && expectKey) {
        key = JSON.parse(b.toString('utf8', s, i)) as string;
        expectKey = false;
      } else if (depth === 1 && key === 'nextPageToken') {
        nextPageToken = JSON.parse(b.toString('utf8', s, i)) as string;
      }
      continue;
    }
    if (!STRUCTURAL[c]) return undefined;
    if (c === 123 || c === 91) {
      depth++;
      if (depth === 1 && c !== 123) return undefined;
      if (depth === 1) expectKey = true;
      if (depth === 2 && key === 'transactions') {
        if (c !== 91 || sawTransactions) return undefined;
        inTransactions = true;
        sawTransactions = true;
        first = i + 1;
        starts.push(first);
      }
    } else if (c === 125 || c === 93) {
      if (inTransactions && depth === 2) {
        if (i > starts[starts.length - 1]!) ends.push(i);
        else if (ends.length > 0)
          return undefined; // [a,] is not JSON
        else starts.pop();
        inTransactions = false;
      }
      depth--;
      if (depth < 0) return undefined;
    } else if (c === 44) {
      if (depth === 1) expectKey = true;
      else if (inTransactions && depth === 2) {
        ends.push(i);
        starts.push(i + 1);
      }
    }
    i++;
  }
  if (depth !== 0 || !sawTransactions) return undefined;
  // a token other than the one expected: declined before the body is touched, the caller parses
  if (expectedToken !== undefined && (nextPageToken ?? '') !== expectedToken) return undefined;
  for (let k = 0; k < starts.length; k++) if (b[starts[k]!] !== 123 || ends[k]! <= starts[k]!) return undefined;
  for (const e of ends) b[e] = NEWLINE;
  const last = ends.length > 0 ? ends[ends.length - 1]! + 1 : first;
  return { ndjson: b.subarray(first, last), ends: ends.map((e) => e + 1 - first), nextPageToken: nextPageToken ?? '' };
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
  const n = b.length;
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

function parsedRawPage(res: HttpResponse<Buffer>): RawTransactionPage {
  const page = checkedPage({ ...res, data: decodeResponse(EP.transactions.list, res) as Partial<TransactionPage> });
  const lines = page.transactions.map((t) => Buffer.from(`${writeJson(t)}\n`));
  const ends: number[] = [];
  let at = 0;
  for (const l of lines) ends.push((at += l.length));
  return { ndjson: Buffer.concat(lines), ends, nextPageToken: page.nextPageToken };
}

async function rawPage(api: ApiClient, f: TransactionFilter, pageToken?: string): Promise<FetchedTransactionPage> {
  const res = await api.bytes(EP.transactions.list, { query: transactionQuery(f, pageToken) });
  const peeked = peekNextPageToken(res.data);
  if (peeked === undefined) {
    // the token is known only once the page is read: read it now
    const page = splitTransactionPageBytes(res.data) ?? parsedRawPage(res);
    return { nextPageToken: page.nextPageToken, take: () => page };
  }
  // the next page is already on its way when the caller splits this one: the page must agree
  return {
    nextPageToken: peeked,
    take: () => {
      const page = splitTransactionPageBytes(res.data, peeked) ?? parsedRawPage(res);
      if (page.nextPageToken !== peeked)
        throw notWhatItReturns(EP.transactions.list, res, 'a nextPageToken other than the one at its end', res.data);
      return page;
    },
  };
}

/** Like transactionPages, for NDJSON output: each transaction's text as the service sent it. */
export function rawTransactionPages(
  api: ApiClient,
  f: TransactionFilter,
  o: { all: boolean; startToken?: string },
): AsyncGenerator<FetchedTransactionPage> {
  return prefetchPages((token) => rawPage(api, f, token), o);
}
