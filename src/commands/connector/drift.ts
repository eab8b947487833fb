// When `connector verify` finds accounts that differ, which transactions: the file's and the
// service's of those accounts only, compared by externalId. A second read, made on drift only (the
// first read keeps a fingerprint per account, which says that something differs but not what).
import { decimalString, numberParts } from '../../contract/decimal.js';
import type { ApiClient } from '../../api/client.js';
import { transactionsPageFast } from '../../api/connector.js';
import type { SlimTransaction } from '../../api/page-scan.js';
import { MAX_PAGE_SIZE } from '../../api/transactions.js';
import { nextPageTokenProblem, prefetchPages } from '../../api/paging.js';
import { ServerError } from '../../errors.js';
import type { InputFormat } from '../../push/input.js';
import { eachRecord, type DateRange } from '../../push/verify.js';

/** One transaction that differs: its amount in the file and on the service (undefined: not there). */
export interface Difference {
  account: string;
  externalId: string;
  file?: string;
  service?: string;
}

/** At most this many differences are kept (and said); the count covers them all. */
const SHOWN = 10;

function sameAmount(a: string, b: string): boolean {
  const x = numberParts(a);
  const y = numberParts(b);
  if (!x || !y) return a === b;
  const s = Math.max(Number(x.scale), Number(y.scale));
  return (
    BigInt(x.unscaledValue) * 10n ** BigInt(s - Number(x.scale)) ===
    BigInt(y.unscaledValue) * 10n ** BigInt(s - Number(y.scale))
  );
}

/** externalId -> amount of the file's transactions of `accounts` (pending ones replaced later left out). */
async function fromFile(
  file: string,
  format: InputFormat,
  accounts: Set<string>,
): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  const pending = new Map<string, string>();
  const replaced = new Set<string>();
  const put = (account: string, id: string, amount: string, isPending: boolean) => {
    if (!accounts.has(account)) return;
    let m = out.get(account);
    if (!m) out.set(account, (m = new Map()));
    m.set(id, amount);
    if (isPending) pending.set(id, account);
  };
  await eachRecord(
    file,
    format,
    (b, sc) => {
      const account = b.toString('utf8', sc.accountStart, sc.accountEnd);
      if (accounts.has(account))
        put(
          account,
          b.toString('utf8', sc.externalIdStart, sc.externalIdEnd),
          b.toString('latin1', sc.amountStart, sc.amountEnd),
          sc.pending,
        );
    },
    (r) => {
      if (r.error !== undefined) return;
      for (const id of r.tx!.pendingIds ?? []) replaced.add(id);
      put(r.account!, r.tx!.externalId, r.tx!.amount, r.tx!.pending === true);
    },
  );
  for (const id of replaced) {
    const account = pending.get(id);
    if (account !== undefined) out.get(account)?.delete(id);
  }
  return out;
}

/**
 * The reader of one page of the read-back (GET /data/v2/transactions, the largest page the service
 * allows, in `range`): every page is followed, so a page without a string token is exit 7 naming it,
 * since ending the read early would report as missing transactions that are on the service.
 */
export function readBackPage(
  api: ApiClient,
  range: DateRange | undefined,
  bearer: string | undefined,
  extra: Record<string, string> = {},
): (token: string | undefined) => Promise<{ transactions: SlimTransaction[]; nextPageToken: string }> {
  const query: Record<string, string | number | undefined> = { pageSize: MAX_PAGE_SIZE, ...extra };
  if (range) {
    query.bookedDateGte = range.gte;
    query.bookedDateLte = range.lte;
  }
  return async (token) => {
    const page = await transactionsPageFast(api, token ? { ...query, pageToken: token } : query, bearer);
    const problem = nextPageTokenProblem(page.nextPageToken, true);
    if (problem) throw new ServerError(`GET /data/v2/transactions answered a page with ${problem.replace(/^a /, '')}`);
    return { transactions: page.transactions, nextPageToken: page.nextPageToken! };
  };
}

/** externalId (providerTransactionId) -> amount of one service account's transactions in `range`. */
async function fromService(
  api: ApiClient,
  accountId: string,
  range: DateRange | undefined,
  bearer: string | undefined,
): Promise<Map<string, string>> {
  const read = readBackPage(api, range, bearer, { accountIdIn: accountId });
  const out = new Map<string, string>();
  const size = (p: { transactions: unknown[] }) => p.transactions.length;
  for await (const page of prefetchPages(read, { all: true, what: 'GET /data/v2/transactions', size }))
    for (const t of page.transactions)
      if (t.providerTransactionId !== undefined)
        out.set(t.providerTransactionId, decimalString(String(t.unscaledValue), String(t.scale)));
  return out;
}

/**
 * The transactions that differ in the accounts given (file account -> service account id, undefined
 * when the service has none paired): the first SHOWN, and how many in all.
 */
export async function differences(
  api: ApiClient,
  o: { file: string; format: InputFormat; range: DateRange | undefined; bearer: string | undefined },
  accounts: Map<string, string | undefined>,
): Promise<{ shown: Difference[]; total: number }> {
  const file = await fromFile(o.file, o.format, new Set(accounts.keys()));
  const shown: Difference[] = [];
  let total = 0;
  const add = (d: Difference) => {
    total++;
    if (shown.length < SHOWN) shown.push(d);
  };
  for (const [account, id] of accounts) {
    const mine = file.get(account) ?? new Map<string, string>();
    const theirs = id !== undefined ? await fromService(api, id, o.range, o.bearer) : new Map<string, string>();
    for (const [ext, amount] of mine) {
      const other = theirs.get(ext);
      if (other === undefined) add({ account, externalId: ext, file: amount });
      else if (!sameAmount(amount, other)) add({ account, externalId: ext, file: amount, service: other });
    }
    for (const [ext, amount] of theirs) if (!mine.has(ext)) add({ account, externalId: ext, service: amount });
  }
  return { shown, total };
}

/** One difference as a user reads it. */
export function describe(d: Difference): string {
  if (d.service === undefined) return `${d.account} ${d.externalId}: ${d.file} in the file, not on the service`;
  if (d.file === undefined) return `${d.account} ${d.externalId}: ${d.service} on the service, not in the file`;
  return `${d.account} ${d.externalId}: amount ${d.file} in the file, ${d.service} on the service`;
}
