// GET /data/v2/transactions (spec 2.4, 4.7, 8): filters, defaults, pages of at most 100 and an opaque
// pageToken that stays correct while transactions are added.
//
// Order: booked date descending, then insertion order (seq) descending, then id. The pageToken holds
// the sort key of the last entry the page looked at (not an offset), so a transaction added while a
// client pages is either before the cursor (not shown to this walk) or after it (shown once); nothing
// is skipped or shown twice. Each user has a sorted index, kept current by watching the shared
// transactions table (set/delete/clear) and the transaction:update event; a page is a binary search
// plus the entries it returns, never a pass over all of the user's transactions.
import { EP } from '../../contract/index.js';
import { createHash } from 'node:crypto';
import type { SandboxContext } from '../context.js';
import type { MemoryStore, TransactionRecord, TransactionTable, TransactionWatcher } from '../store.js';
import { badRequest, JsonText } from '../http.js';
import { enumParam, isoDateParam, pageSizeParam, repeatedParam, todayIso, V2TransactionViews } from './read-views.js';

interface Entry {
  rec: TransactionRecord;
  date: string;
  seq: number;
  id: string;
}

/** In-place index changes between two reads, at most; more drop the index for one re-sort. */
const SPLICE_LIMIT = 64;

interface Cursor {
  date: string;
  seq: number;
  id: string;
}

/** A user's index order (newest first) as a comparator: negative when a sorts before b. */
function order(a: Cursor, b: Cursor): number {
  if (a.date !== b.date) return a.date > b.date ? -1 : 1;
  if (a.seq !== b.seq) return b.seq - a.seq;
  return a.id > b.id ? -1 : a.id < b.id ? 1 : 0;
}

/** a sorts before b in a user's index. */
const before = (a: Cursor, b: Cursor): boolean => order(a, b) < 0;

/** Per-user sorted views of store.transactions, rebuilt only for users whose data changed. */
export class TransactionIndex implements TransactionWatcher {
  private watched?: TransactionTable;
  private readonly sorted = new Map<string, Entry[]>();
  /** In-place changes since the user's index was last read. */
  private readonly changes = new Map<string, number>();

  /** `onForget`: called when the store's transactions are cleared or the map replaced (a reset, a restore). */
  constructor(
    private readonly store: MemoryStore,
    private readonly onForget: () => void = () => undefined,
  ) {}

  /** Watches the store's table (again after a restore replaced it). */
  private attach(): void {
    const m = this.store.transactions;
    if (m === this.watched) return;
    this.watched = m;
    // the table keeps each user's records itself: nothing to read here until a user's page is asked
    this.cleared();
    m.watch({
      // only while it is the store's table: one replaced by a restore tells nobody
      added: (t) => m === this.watched && this.added(t),
      removed: (t) => m === this.watched && this.removed(t),
      cleared: () => m === this.watched && this.cleared(),
    });
  }

  cleared(): void {
    this.sorted.clear();
    this.changes.clear();
    this.onForget();
  }

  // A built index takes a few changes in place (binary search and splice), so transactions arriving
  // while a client pages cost no rebuild; a burst (an ingest) drops it instead, so that bulk writes
  // stay linear and the next read sorts once.
  private spliceable(userId: string): Entry[] | undefined {
    const list = this.sorted.get(userId);
    if (!list) return undefined;
    const n = (this.changes.get(userId) ?? 0) + 1;
    if (n > SPLICE_LIMIT) {
      this.sorted.delete(userId);
      this.changes.delete(userId);
      return undefined;
    }
    this.changes.set(userId, n);
    return list;
  }

  added(t: TransactionRecord): void {
    const list = this.spliceable(t.userId);
    if (!list) return;
    const e: Entry = { rec: t, date: t.bookedDate, seq: t.seq ?? 0, id: t.id };
    list.splice(afterCursor(list, e), 0, e);
  }

  removed(t: TransactionRecord): void {
    const list = this.spliceable(t.userId);
    if (!list) return;
    const i = afterCursor(list, { date: t.bookedDate, seq: t.seq ?? 0, id: t.id }) - 1;
    if (i >= 0 && list[i]!.rec === t) list.splice(i, 1);
    else this.sorted.delete(t.userId);
  }

  /** A record changed in place (its date may have moved). */
  invalidate(userId: string): void {
    this.sorted.delete(userId);
  }

  entries(userId: string): Entry[] {
    this.attach();
    // an ingest kept as its body (connector/batch.ts) is made into records, and told here, now
    this.store.transactions.flushUser(userId);
    this.changes.delete(userId);
    let list = this.sorted.get(userId);
    if (!list) {
      list = [];
      for (const rec of this.store.transactions.ofUser(userId))
        list.push({ rec, date: rec.bookedDate, seq: rec.seq ?? 0, id: rec.id });
      list.sort(order);
      this.sorted.set(userId, list);
    }
    return list;
  }
}

/** First index whose entry sorts after the cursor. */
function afterCursor(list: Entry[], c: Cursor): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(c, list[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** First index whose booked date is on or before `lte`. */
function firstOnOrBefore(list: Entry[], lte: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.date <= lte) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export const TRANSACTION_STATUSES = ['BOOKED', 'PENDING', 'UNDEFINED'];
/** Entries one request looks at, at most: a very selective filter answers a short page and a token. */
const SCAN_LIMIT = 20_000;

/** Recent fingerprints by their input (a client pages with the same filters): no hash per page. */
const fingerprints = new Map<string, string>();

function fingerprint(parts: unknown[]): string {
  const key = JSON.stringify(parts);
  let fp = fingerprints.get(key);
  if (fp === undefined) {
    fp = createHash('sha256').update(key).digest('base64url').slice(0, 10);
    if (fingerprints.size >= 256) fingerprints.clear();
    fingerprints.set(key, fp);
  }
  return fp;
}

function encodeToken(c: Cursor, fp: string): string {
  return Buffer.from(JSON.stringify({ v: 1, d: c.date, s: c.seq, i: c.id, f: fp })).toString('base64url');
}

function decodeToken(token: string, fp: string): Cursor {
  let o: { v?: unknown; d?: unknown; s?: unknown; i?: unknown; f?: unknown };
  try {
    if (token.length > 512 || !/^[A-Za-z0-9_-]+$/.test(token)) throw new Error('shape');
    o = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('pageToken is not valid: pass the nextPageToken of the previous page unchanged', {
      field: 'pageToken',
    });
  }
  if (!o || o.v !== 1 || typeof o.d !== 'string' || typeof o.s !== 'number' || typeof o.i !== 'string') {
    throw badRequest('pageToken is not valid: pass the nextPageToken of the previous page unchanged', {
      field: 'pageToken',
    });
  }
  if (o.f !== fp)
    throw badRequest('pageToken belongs to a query with other filters: repeat the same filters with it', {
      field: 'pageToken',
    });
  return { date: o.d, seq: o.s, id: o.i };
}

export function registerTransactionsV2(ctx: SandboxContext): TransactionIndex {
  const { store, handle } = ctx;
  const views = new V2TransactionViews();
  const index = new TransactionIndex(store, () => views.clear());
  ctx.events.subscribe(
    (e) => {
      if (e.event === 'transaction:update') index.invalidate(e.userId);
    },
    (event) => event === 'transaction:update',
  );

  handle(EP.transactions.list, (req, res) => {
    const user = req.user();
    const q = req.query;
    const accountIds = repeatedParam(q, 'accountIdIn');
    const statuses = enumParam(repeatedParam(q, 'statusIn'), 'statusIn', TRANSACTION_STATUSES, 'status');
    const pageSize = pageSizeParam(q, 100, 'clamp');
    const gte = isoDateParam(q, 'bookedDateGte');
    const lteGiven = isoDateParam(q, 'bookedDateLte');
    // defaults (spec 4.7): from the earliest transaction, until today
    const lte = lteGiven ?? todayIso(store.clock.now());
    if (gte !== undefined && gte > lte)
      throw badRequest(`bookedDateGte (${gte}) is after bookedDateLte (${lte})`, { field: 'bookedDateGte' });
    const fp = fingerprint([[...accountIds].sort(), [...statuses].sort(), gte ?? null, lteGiven ?? null]);
    const token = q.get('pageToken');
    const cursor = token ? decodeToken(token, fp) : undefined;

    const visible = visibility(store);
    const accountSet = accountIds.length > 0 ? new Set(accountIds) : undefined;
    const statusSet = statuses.length > 0 ? new Set(statuses) : undefined;

    let list = index.entries(user.id);
    let out: TransactionRecord[] = [];
    let next = '';
    for (let attempt = 0; attempt < 2; attempt++) {
      out = [];
      next = '';
      let stale = false;
      let j = Math.max(cursor ? afterCursor(list, cursor) : 0, firstOnOrBefore(list, lte));
      let scanned = 0;
      let last: Entry | undefined;
      for (; j < list.length; j++) {
        const e = list[j]!;
        if (e.rec.bookedDate !== e.date) {
          stale = true;
          break;
        }
        if (gte !== undefined && e.date < gte) break;
        if (scanned >= SCAN_LIMIT) {
          next = encodeToken(last!, fp);
          break;
        }
        scanned++;
        const t = e.rec;
        const match =
          (!accountSet || accountSet.has(t.accountId)) && (!statusSet || statusSet.has(t.status)) && visible(t);
        if (match) {
          if (out.length === pageSize) {
            // there is at least one more: the next page starts after the last one shown
            next = encodeToken(last!, fp);
            break;
          }
          out.push(t);
        }
        last = e;
      }
      if (!stale) break;
      index.invalidate(user.id);
      list = index.entries(user.id);
    }
    res.json(200, new JsonText(views.page(out, user.locale, next)));
  });
  return index;
}

/**
 * Whether a transaction shows, for one request: AGGREGATION-excluded or vanished accounts show no
 * transactions. The answer of the last account asked is kept (a page comes from a few accounts).
 */
function visibility(store: MemoryStore): (t: TransactionRecord) => boolean {
  let accountId: string | undefined;
  let userId: string | undefined;
  let shown = false;
  return (t) => {
    if (t.accountId !== accountId || t.userId !== userId) {
      const a = store.accounts.get(t.accountId);
      accountId = t.accountId;
      userId = t.userId;
      shown = !!a && a.userId === t.userId && a.accountExclusion !== 'AGGREGATION';
    }
    return shown;
  };
}
