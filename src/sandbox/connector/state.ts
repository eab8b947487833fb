// The connector's indexes beside the shared maps: per user, accounts and transactions by their
// externalId (the ingest path is O(1) per transaction) and the externalIds deleted (410 on
// re-ingest). The records themselves live in store.accounts and store.transactions.
import type { AccountRecord, MemoryStore, TransactionRecord, UserRecord } from '../store.js';
import { StringMap } from '../string-map.js';
import type { IngestBatch } from './batch.js';

export interface ConnectorUserState {
  accounts: Map<string, AccountRecord>;
  transactions: ExternalIndex;
  deleted: Set<string>;
}

/**
 * A connector user's transactions by externalId. An ingest kept as its body (IngestBatch) is in it
 * by reference: a number per transaction, its externalId read from the body when a look-up's hash
 * matches; the first read of a value has the table make the user's records, and takes them.
 */
export class ExternalIndex extends StringMap<TransactionRecord> {
  /** Batches with entries here not made yet, and the reference of each one's first transaction. */
  private batches: IngestBatch[] = [];
  private bases: number[] = [];
  private nextRef = 0;

  /** Transaction i of b, whose externalId is k (not in the index); h = hashOf(k) or undefined. */
  addLazy(b: IngestBatch, i: number, k: string, h: number | undefined): void {
    if (this.batches[this.batches.length - 1] !== b) {
      this.batches.push(b);
      this.bases.push(this.nextRef);
      this.nextRef += b.count;
    }
    this.putLazy(k, h, this.bases[this.bases.length - 1]! + i);
  }

  /** The batch of a reference and the transaction's place in it. */
  private locate(ref: number): [IngestBatch, number] {
    let lo = 0;
    let hi = this.bases.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.bases[mid]! <= ref) lo = mid;
      else hi = mid - 1;
    }
    return [this.batches[lo]!, ref - this.bases[lo]!];
  }

  protected override lazyKey(ref: number): string {
    const [b, i] = this.locate(ref);
    return b.entity(i).externalId;
  }

  protected override resolveLazy(): void {
    const first = this.batches[0];
    // the table makes every pending batch of the user, then calls resolveBatches (IngestBatch.taken)
    if (first) first.table.flushUser(first.userId);
    if (this.lazyEntries > 0) throw new Error('ExternalIndex: entries whose records were never made');
  }

  /** Takes the made records of every batch (all of the user's are made together). */
  resolveBatches(): void {
    if (this.batches.length === 0) return;
    this.replaceLazy((ref) => {
      const [b, i] = this.locate(ref);
      const r = b.made(i);
      return [r.externalId!, r];
    });
    this.batches = [];
    this.bases = [];
    this.nextRef = 0;
  }
}

/**
 * The indexes are derived from the store's own maps (rebuilt whenever the area is created: at start,
 * after a reset, after a snapshot is restored), so they always point at the stored records. Only the
 * tombstones of deleted externalIds are state of their own, and only they are persisted.
 */
export class ConnectorState {
  private readonly byUser = new Map<string, ConnectorUserState>();

  get users(): Map<string, ConnectorUserState> {
    return this.byUser;
  }

  /** A snapshot of an older layout held copies of the records: ignored, the index is rebuilt. */
  set users(_ignored: unknown) {}

  constructor(store?: MemoryStore) {
    if (!store) return;
    const connectorAccounts = new Set<string>();
    for (const a of store.accounts.values()) {
      if (a.externalId === undefined) continue;
      this.of(a.userId).accounts.set(a.externalId, a);
      connectorAccounts.add(a.id);
    }
    for (const t of store.transactions.values()) {
      if (t.externalId !== undefined && connectorAccounts.has(t.accountId))
        this.of(t.userId).transactions.set(t.externalId, t);
    }
  }

  of(userId: string): ConnectorUserState {
    let s = this.users.get(userId);
    if (!s) {
      s = { accounts: new Map(), transactions: new ExternalIndex(), deleted: new Set() };
      this.users.set(userId, s);
    }
    return s;
  }

  /** What a snapshot keeps: the tombstones (the records are in the store's maps already). */
  toJSON(): { tombstones: Record<string, string[]> } {
    const tombstones: Record<string, string[]> = {};
    for (const [userId, s] of this.users) if (s.deleted.size > 0) tombstones[userId] = [...s.deleted];
    return { tombstones };
  }

  /** Restored from a snapshot (the store assigns the saved properties to a fresh area). */
  set tombstones(saved: Record<string, string[]>) {
    if (!saved || typeof saved !== 'object') return;
    for (const [userId, ids] of Object.entries(saved))
      if (Array.isArray(ids)) for (const id of ids) this.of(userId).deleted.add(String(id));
  }
}

export function connectorState(store: MemoryStore): ConnectorState {
  return store.area('connector', () => new ConnectorState(store));
}

/** Category of a connector transaction before any categorisation: uncategorised expense or income. */
export const UNCATEGORIZED_EXPENSE = '0e1bade6a7e3459eb794e3b5a4f3c2e1';
export const UNCATEGORIZED_INCOME = '0e1bade6a7e3459eb794e3b5a4f3c2e2';

const dayCache = new Map<number, string>();
/** YYYY-MM-DD (UTC) of an epoch-ms date; the strings are shared per day to keep records small. */
export function isoDay(ms: number): string {
  const day = Math.floor(ms / 86_400_000);
  let s = dayCache.get(day);
  if (s === undefined) {
    s = new Date(day * 86_400_000).toISOString().slice(0, 10);
    if (dayCache.size < 100_000) dayCache.set(day, s);
  }
  return s;
}

/** A transaction as /data/v2/transactions shows it, with the connector payload as partnerPayload. */
export function apiTransaction(t: TransactionRecord): Record<string, unknown> {
  const neg = t.amount.startsWith('-');
  const digits = t.amount.replace(/^[-+]/, '');
  const dot = digits.indexOf('.');
  const scale = dot < 0 ? 0 : digits.length - dot - 1;
  const unscaled = (neg ? '-' : '') + (digits.replace('.', '').replace(/^0+(?=\d)/, '') || '0');
  const out: Record<string, unknown> = {
    id: t.id,
    accountId: t.accountId,
    amount: { currencyCode: t.currencyCode, value: { scale: String(scale), unscaledValue: unscaled } },
    categories: { pfm: { id: t.categoryId, name: '' } },
    dates: { booked: t.bookedDate, value: t.valueDate },
    descriptions: { display: t.description, original: t.originalDescription },
    identifiers: { providerTransactionId: t.externalId ?? t.id },
    merchantInformation: {},
    providerMutability: t.status === 'PENDING' ? 'MUTABLE' : 'MUTABILITY_UNDEFINED',
    status: t.status,
    types: { type: t.type },
    partnerPayload: t.payload ?? {},
  };
  if (t.notes !== undefined) out.notes = t.notes;
  return out;
}

/** The one set of credentials connector data hangs off; created on first use for users made by /api/v1/user/create. */
export function ensureConnector(store: MemoryStore, user: UserRecord): NonNullable<UserRecord['connector']> {
  // the token is a random secret nobody knows: such a user reads its data with a generated token
  if (!user.connector)
    user.connector = { token: store.ids.secret(24), blocked: false, credentialsId: store.ids.next() };
  return user.connector;
}
