// POST /api/v1/search (spec 2.7; shapes from the Swagger's SearchQuery and SearchResponse): the
// query string narrows the user's searchable transactions (accounts excluded with
// PFM_AND_SEARCH or AGGREGATION are left out); every interpreted word is ANDed.
import { EP } from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { plain } from '../http.js';
import { plainJson } from './reports.js';
import { parseSearchQuery, type ParsedQuery } from '../finance/search-query.js';
import { abs, add, cmp, denominated, divHalfEven, toNumber, ZERO, type Dec } from '../../contract/decimal.js';
import {
  mainCurrency,
  tagsOf,
  txCategory,
  txPrimary,
  txType,
  userAccounts,
  userTransactions,
  type Tx,
} from '../finance/data.js';
import { DAY_MS, isoDate } from '../finance/dates.js';

export const DEFAULT_SEARCH_LIMIT = 50;
export const MAX_SEARCH_LIMIT = 1000;
const SORTS = ['SCORE', 'DATE', 'ACCOUNT', 'DESCRIPTION', 'AMOUNT', 'CATEGORY'];

function transactionResponse(t: Tx): Record<string, unknown> {
  const r = t.rec;
  const cat = txCategory(t);
  const type = txType(t);
  return {
    id: r.id,
    userId: r.userId,
    accountId: r.accountId,
    amount: toNumber(t.amount),
    currencyDenominatedAmount: denominated(t.amount, r.currencyCode),
    originalAmount: toNumber(t.amount),
    currencyDenominatedOriginalAmount: denominated(t.amount, r.currencyCode),
    categoryId: cat?.id ?? r.categoryId,
    categoryType: type === 'TRANSFER' ? 'TRANSFERS' : type,
    date: t.date,
    originalDate: t.date,
    description: r.description,
    originalDescription: r.originalDescription,
    notes: r.notes ?? '',
    pending: r.status === 'PENDING',
    upcoming: false,
    timestamp: r.created,
    lastModified: r.updated,
    type: r.type,
    payload: {},
  };
}

/** The SearchQuery's fields, checked (a plain 400 naming the field otherwise). */
interface SearchRequest {
  body: Record<string, unknown>;
  queryString: string;
  limit: number;
  offset: number;
  accounts?: string[];
  categories?: string[];
  startDate?: number;
  endDate?: number;
  sort: string;
  order: 'ASC' | 'DESC';
}

function parseSearchRequest(body: unknown): SearchRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw plain(400, 'the body must be a JSON object (SearchQuery)');
  const b = body as Record<string, unknown>;
  if (b.queryString !== undefined && b.queryString !== null && typeof b.queryString !== 'string')
    throw plain(400, 'queryString must be a string');
  if (typeof b.queryString === 'string' && b.queryString.length > 1000)
    throw plain(400, 'queryString is longer than 1000 characters');
  const int = (k: string, max: number): number | undefined => {
    const v = b[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
      throw plain(400, `${k} must be a whole number from 0 to ${max}`);
    return v;
  };
  const ids = (k: string): string[] | undefined => {
    const v = b[k];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw plain(400, `${k} must be an array of strings`);
    if (v.length > 1000) throw plain(400, `${k} may hold at most 1000 values`);
    return v as string[];
  };
  const epoch = (k: string): number | undefined => {
    const v = b[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isSafeInteger(v))
      throw plain(400, `${k} must be an epoch time in milliseconds`);
    return v;
  };
  const sort = b.sort === undefined || b.sort === null ? 'DATE' : String(b.sort);
  if (!SORTS.includes(sort)) throw plain(400, `sort must be one of ${SORTS.join(', ')}`);
  const order = b.order === undefined || b.order === null ? 'DESC' : String(b.order);
  if (order !== 'ASC' && order !== 'DESC') throw plain(400, 'order must be ASC or DESC');
  return {
    body: b,
    queryString: typeof b.queryString === 'string' ? b.queryString : '',
    limit: int('limit', MAX_SEARCH_LIMIT) || DEFAULT_SEARCH_LIMIT,
    offset: int('offset', 1_000_000) ?? 0,
    accounts: ids('accounts'),
    categories: ids('categories'),
    startDate: epoch('startDate'),
    endDate: epoch('endDate'),
    sort,
    order,
  };
}

/** Whether a transaction passes the request's filters and every interpreted word of its query. */
function matches(t: Tx, r: SearchRequest, q: ParsedQuery): boolean {
  if (r.accounts && !r.accounts.includes(t.rec.accountId)) return false;
  const cat = txCategory(t);
  const primary = txPrimary(t);
  if (r.categories && !r.categories.some((c) => c === cat?.id || c === primary?.id)) return false;
  if (r.startDate !== undefined && t.date + DAY_MS - 1 < r.startDate) return false;
  if (r.endDate !== undefined && t.date > r.endDate) return false;
  if (q.dateFrom !== undefined && t.date < q.dateFrom) return false;
  if (q.dateTo !== undefined && t.date >= q.dateTo) return false;
  const wd = new Date(t.date).getUTCDay();
  if (q.weekdays && (wd === 0 || wd === 6)) return false;
  if (q.weekends && wd !== 0 && wd !== 6) return false;
  const a = abs(t.amount);
  if (q.amountMin && cmp(a, q.amountMin) < 0) return false;
  if (q.amountMax && cmp(a, q.amountMax) > 0) return false;
  if (q.tags.length) {
    const tags = tagsOf(t.rec);
    if (!q.tags.every((tag) => tags.includes(tag))) return false;
  }
  if (!q.categories.every((c) => c.id === cat?.id || c.id === primary?.id)) return false;
  const text =
    `${t.rec.description} ${t.rec.originalDescription} ${t.rec.merchantName ?? ''} ${t.rec.notes ?? ''}`.toLowerCase();
  return q.words.every((w) => text.includes(w));
}

/** Hits in the request's order; ties keep the order the transactions were stored in. */
function sortHits(hits: Tx[], sort: string, order: 'ASC' | 'DESC'): void {
  const dir = order === 'ASC' ? 1 : -1;
  const key = (t: Tx): string | number | Dec =>
    sort === 'AMOUNT'
      ? t.amount
      : sort === 'DESCRIPTION'
        ? t.rec.description.toLowerCase()
        : sort === 'ACCOUNT'
          ? t.rec.accountId
          : sort === 'CATEGORY'
            ? (txCategory(t)?.code ?? '')
            : t.date;
  hits.sort((x, y) => {
    const a = key(x);
    const c = key(y);
    const r = typeof a === 'object' ? cmp(a, c as Dec) : a < c ? -1 : a > c ? 1 : 0;
    return r * dir || (x.rec.seq - y.rec.seq) * dir;
  });
}

/** Metrics over every hit in the user's currency: net, sum, average, category shares, month sums. */
function metricsOf(hits: Tx[], currency: string) {
  let net = ZERO;
  let total = ZERO;
  const byCat = new Map<string, Dec>();
  const byMonth = new Map<string, Dec>();
  let count = 0;
  for (const t of hits) {
    if (t.rec.currencyCode !== currency) continue;
    count++;
    net = add(net, t.amount);
    total = add(total, abs(t.amount));
    const c = txCategory(t)?.id ?? t.rec.categoryId;
    byCat.set(c, add(byCat.get(c) ?? ZERO, abs(t.amount)));
    const m = isoDate(t.date).slice(0, 7);
    byMonth.set(m, add(byMonth.get(m) ?? ZERO, t.amount));
  }
  const ratio = (part: Dec): number =>
    total.u === 0n ? 0 : Number(divHalfEven(part.u * 10n ** BigInt(total.s - part.s + 4), total.u)) / 10_000;
  const avg = count === 0 ? ZERO : { u: divHalfEven(total.u * 100n, BigInt(count)), s: total.s + 2 };
  return {
    net,
    metrics: {
      COUNT: count,
      NET: toNumber(net),
      SUM: toNumber(total),
      AVG: Number(toNumber(avg).toFixed(Math.max(2, total.s))),
      CATEGORIES: Object.fromEntries([...byCat].map(([c, v]) => [c, ratio(v)])),
    },
    periodAmounts: [...byMonth].sort((x, y) => (x[0] < y[0] ? -1 : 1)).map(([key, v]) => ({ key, value: toNumber(v) })),
  };
}

function interpretation(q: ParsedQuery): Record<string, unknown> {
  return {
    tags: q.tags,
    amountMin: q.amountMin ? toNumber(q.amountMin) : null,
    amountMax: q.amountMax ? toNumber(q.amountMax) : null,
    dateFrom: q.dateFrom !== undefined ? isoDate(q.dateFrom) : null,
    dateTo: q.dateTo !== undefined ? isoDate(q.dateTo - DAY_MS) : null,
    weekdays: Boolean(q.weekdays),
    weekends: Boolean(q.weekends),
    categories: q.categories.map((c) => c.code),
    words: q.words,
  };
}

export function registerSearch(ctx: SandboxContext): void {
  ctx.handle(EP.search.query, async (req, res) => {
    const user = req.user();
    const r = parseSearchRequest(await plainJson(req));
    const q = parseSearchQuery(r.queryString, user.locale, ctx.clock.now());
    const hits = userTransactions(ctx.store, user.id, 'search').filter((t) => matches(t, r, q));
    sortHits(hits, r.sort, r.order);
    const { net, metrics, periodAmounts } = metricsOf(hits, mainCurrency(userAccounts(ctx.store, user.id)));
    res.json(200, {
      count: hits.length,
      net: toNumber(net),
      metrics,
      periodAmounts,
      query: { ...r.body, limit: r.limit, offset: r.offset, sort: r.sort, order: r.order },
      queryInterpretation: interpretation(q),
      results: hits
        .slice(r.offset, r.offset + r.limit)
        .map((t) => ({ type: 'TRANSACTION', transaction: transactionResponse(t) })),
    });
  });
}
