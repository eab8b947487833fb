// The sandbox's state behind an interface. In memory; every area keeps its records here so that
// deleting a user or resetting the sandbox reaches everything.
import { createHash, randomBytes } from 'node:crypto';
import type { AccountType } from '../contract/vocabulary.js';
import { StringMap } from './string-map.js';

export interface Clock {
  now(): number;
}

/** A clock tests (and `sandbox clock`) can move; ctx.setTimeout timers follow it when it jumps. */
export class SandboxClock implements Clock {
  private offset = 0;
  private readonly moved: Array<() => void> = [];
  /** `base`: the machine's time (Date.now) unless a test gives another. */
  constructor(private readonly base?: () => number) {}
  now(): number {
    // Date.now called directly: through the property it was a call the compiler could not inline,
    // on every request (the request log stamps each)
    return (this.base === undefined ? Date.now() : this.base()) + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
    for (const fn of this.moved) fn();
  }
  /** Jumps to this time (epoch ms); the clock keeps running from there. */
  set(ms: number): void {
    this.advance(ms - this.now());
  }
  /** How far the clock is from the machine's time, ms. */
  get offsetMs(): number {
    return this.offset;
  }
  /** Called after every advance() or set(). */
  onMove(fn: () => void): void {
    this.moved.push(fn);
  }
}

/** Deterministic ids with --seed, random ones otherwise. Ids are dashless UUIDs (32 hex). */
export class IdSource {
  /** How many deterministic ids were handed out (persisted with the state). */
  counter = 0;
  constructor(private readonly seed?: number) {}
  private pool = Buffer.alloc(0);
  private poolAt = 0;

  next(): string {
    if (this.seed === undefined) {
      // random bytes drawn 4 KiB at a time: one call per 256 ids instead of one per id
      if (this.poolAt + 16 > this.pool.length) {
        this.pool = randomBytes(4096);
        this.poolAt = 0;
      }
      this.poolAt += 16;
      return this.pool.toString('hex', this.poolAt - 16, this.poolAt);
    }
    this.counter++;
    return createHash('sha256').update(`${this.seed}:${this.counter}`).digest('hex').slice(0, 32);
  }
  /**
   * The next n ids at once, made when asked for (IdBlock.at): the same ids n calls of next() would
   * give, in order (random bytes drawn now; under a seed, the counter moved past them now).
   */
  reserve(n: number): IdBlock {
    if (this.seed === undefined) return new IdBlock(randomBytes(16 * n));
    const base = this.counter;
    this.counter += n;
    return new IdBlock(undefined, this.seed, base);
  }
  /** A secret-quality random string (tokens, codes, secrets), deterministic under a seed. */
  secret(bytes = 24): string {
    let s: string;
    if (this.seed === undefined) s = randomBytes(bytes).toString('base64url');
    else {
      this.counter++;
      s = createHash('sha256')
        .update(`secret:${this.seed}:${this.counter}`)
        .digest('base64url')
        .slice(0, Math.ceil((bytes * 4) / 3));
    }
    // never a leading "-": a token is pasted into command lines (`config set KEY TOKEN`), where it
    // would read as an option (one in 64 did, and failed the rotation test now and then)
    return s.charCodeAt(0) === 45 ? `A${s.slice(1)}` : s;
  }
  uuid(): string {
    const h = this.next();
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** Ids handed out at once by IdSource.reserve: 16 random bytes each, or counters under a seed. */
export class IdBlock {
  constructor(
    private readonly bytes?: Buffer,
    private readonly seed = 0,
    private readonly base = 0,
  ) {}
  /** The i-th id of the block. */
  at(i: number): string {
    if (this.bytes) return this.bytes.toString('hex', 16 * i, 16 * i + 16);
    return createHash('sha256')
      .update(`${this.seed}:${this.base + i + 1}`)
      .digest('hex')
      .slice(0, 32);
  }
}

export interface ClientRecord {
  id: string;
  secret: string;
  name: string;
  scopes: Set<string>;
  redirectUris: string[];
}

export interface UserRecord {
  id: string;
  externalUserId?: string;
  market: string;
  locale: string;
  created: number;
  clientId?: string;
  /** Users of the hosted flow are deleted after 24 hours. */
  expiresAt?: number;
  /** Connector-activated users (connector-api.md 2.1). */
  connector?: {
    token: string;
    blocked: boolean;
    label?: string;
    /** The one set of credentials connector data hangs off. */
    credentialsId: string;
  };
}

export interface TokenRecord {
  token: string;
  kind: 'client' | 'user';
  clientId: string;
  userId?: string;
  scopes: Set<string>;
  expiresAt: number;
  issuedAt: number;
}

export interface CodeRecord {
  code: string;
  /** The client allowed to exchange it (the actor client for delegated codes). */
  clientId: string;
  userId: string;
  scopes: string[];
  expiresAt: number;
  /** Codes of the hosted flow exchange to a token with a refresh_token. */
  withRefresh: boolean;
  idHint?: string;
  used: boolean;
}

export interface RefreshRecord {
  token: string;
  clientId: string;
  userId: string;
  scopes: string[];
  expiresAt: number;
}

export type AccountExclusion = 'NONE' | 'AGGREGATION' | 'PFM_AND_SEARCH' | 'PFM_DATA';

export interface AccountRecord {
  id: string;
  userId: string;
  /** Credentials (consents) giving access to this account. */
  credentialsIds: string[];
  externalId?: string;
  name: string;
  accountNumber: string;
  type: AccountType;
  /** Exact decimal string. */
  balance: string;
  currencyCode: string;
  availableCredit?: string;
  /** A reservation not in `balance` (an account created with one): the reads subtract it for the
   * available balance. A connector transaction call takes its reservedAmount off the balance it sets
   * and clears this (routes/connector.ts setBalance). */
  reservedAmount?: string;
  closed: boolean;
  accountExclusion: AccountExclusion;
  excluded: boolean;
  favored: boolean;
  flags: string[];
  payload?: Record<string, unknown>;
  holderName?: string;
  iban?: string;
  portfolioType?: string;
  created: number;
  updated: number;
}

export interface TransactionRecord {
  id: string;
  userId: string;
  accountId: string;
  externalId?: string;
  /** Exact decimal string, e.g. "-12.50". */
  amount: string;
  currencyCode: string;
  /** YYYY-MM-DD */
  bookedDate: string;
  valueDate: string;
  description: string;
  originalDescription: string;
  categoryId: string;
  status: 'BOOKED' | 'PENDING';
  /** types.type: DEFAULT, CREDIT_CARD, TRANSFER, PAYMENT, WITHDRAWAL */
  type: string;
  providerTransactionId?: string;
  merchantName?: string;
  merchantCategoryCode?: string;
  /** The connector's counterparties as sent (payee/payer), shown as data v2's counterparties. */
  counterparties?: Record<string, unknown>;
  reference?: string;
  payload?: Record<string, unknown>;
  notes?: string;
  /** Insertion order: the stable tie-break for paging. */
  seq: number;
  created: number;
  updated: number;
}

/** What a TransactionTable tells a watcher: a record came in, went, or all went. */
export interface TransactionWatcher {
  added(t: TransactionRecord): void;
  removed(t: TransactionRecord): void;
  cleared(): void;
}

/** A user's records in the order they came, and those of them deleted since (dropped in bulk). */
interface Members {
  list: TransactionRecord[];
  gone: Set<TransactionRecord>;
}

const NONE: readonly TransactionRecord[] = Object.freeze([]);

/**
 * The store's transactions by id: a Map to every reader and writer, which also tells its watchers
 * (the data v2 transactions index) of each record set, replaced or deleted, so that they need not
 * be told by each of the places that write. It keeps each user's records too (ofUser): a request
 * about one user reads that user's records, not every transaction in the sandbox (one connector
 * user with a million of them made another's statistics take 0.7 s).
 */
/**
 * Transactions kept as they came until one of them is read: a connector ingest's request body and
 * what it was given at the ingest (ids, seqs, time), made into records in one go when the table is
 * first asked about that user (or, for a look-up by id that misses or a walk of the whole table,
 * about anyone). See connector/batch.ts and docs/lazy-transaction-store.md.
 */
export interface PendingBatch {
  readonly userId: string;
  readonly count: number;
  /** The batch's records, in order; made once. */
  materialize(): TransactionRecord[];
  /** Told once the table holds the records (the externalId index takes them then). */
  taken(): void;
}

export class TransactionTable extends StringMap<TransactionRecord> {
  private watchers: TransactionWatcher[] = [];
  /**
   * Each user's records: appended as they come (no hashing per record), deletions kept aside. Made
   * by the first ofUser (one pass over the table), so that a sandbox only written to (a bulk ingest)
   * keeps no list beside the table (10 bytes a transaction).
   */
  private byUser?: Map<string, Members>;
  /** Batches not made into records yet, per user in the order they came (addBatch). */
  private pending = new Map<string, PendingBatch[]>();
  private pendingCount = 0;

  static from(entries: Iterable<[string, TransactionRecord]>): TransactionTable {
    const t = new TransactionTable();
    for (const [k, v] of entries) t.set(k, v);
    return t;
  }

  watch(w: TransactionWatcher): void {
    this.watchers.push(w);
  }

  /**
   * Transactions whose records are made when the table is first asked about their user. A user's
   * order is the order they came; between users, batches are made in the order of their users'
   * first batches, after the records already made.
   */
  addBatch(b: PendingBatch): void {
    if (b.count === 0) return;
    let list = this.pending.get(b.userId);
    if (!list) this.pending.set(b.userId, (list = []));
    list.push(b);
    this.pendingCount += b.count;
  }

  /** Makes the user's pending batches into records (the watchers are told of each then). */
  flushUser(userId: string): void {
    const list = this.pending.get(userId);
    if (!list) return;
    this.pending.delete(userId);
    for (const b of list) {
      this.pendingCount -= b.count;
      for (const rec of b.materialize()) super.set(rec.id, rec);
    }
    for (const b of list) b.taken();
  }

  private flushAll(): void {
    if (this.pendingCount === 0) return;
    for (const userId of [...this.pending.keys()]) this.flushUser(userId);
  }

  override get size(): number {
    return super.size + this.pendingCount;
  }

  /** Of size, the transactions whose records are not made yet. */
  get kept(): number {
    return this.pendingCount;
  }

  override get(k: string): TransactionRecord | undefined {
    const v = super.get(k);
    if (v !== undefined || this.pendingCount === 0) return v;
    this.flushAll();
    return super.get(k);
  }

  override has(k: string): boolean {
    return this.get(k) !== undefined;
  }

  override set(k: string, v: TransactionRecord): this {
    // the user's batches first, so that their records keep their place before this one
    if (this.pendingCount > 0) this.flushUser(v.userId);
    return super.set(k, v);
  }

  override delete(k: string): boolean {
    if (this.pendingCount > 0 && super.get(k) === undefined) this.flushAll();
    return super.delete(k);
  }

  override clear(): void {
    this.pending.clear();
    this.pendingCount = 0;
    super.clear();
  }

  override keys(): MapIterator<string> {
    this.flushAll();
    return super.keys();
  }

  override values(): MapIterator<TransactionRecord> {
    this.flushAll();
    return super.values();
  }

  override entries(): MapIterator<[string, TransactionRecord]> {
    this.flushAll();
    return super.entries();
  }

  override [Symbol.iterator](): MapIterator<[string, TransactionRecord]> {
    this.flushAll();
    return super[Symbol.iterator]();
  }

  /**
   * The user's records, in the order they first came (a record set again under its id keeps its
   * place; one replaced by another object goes last). Deletes after the call leave the array a
   * caller holds as it was; records added for the user are appended to it, as a Map's iteration
   * sees them.
   */
  ofUser(userId: string): readonly TransactionRecord[] {
    this.flushUser(userId);
    if (!this.byUser) {
      this.byUser = new Map();
      // the records made so far (other users' batches join their lists when they are made)
      for (const t of super.values()) this.member(this.byUser, t);
    }
    const u = this.byUser.get(userId);
    if (!u) return NONE;
    this.compact(this.byUser, userId, u);
    return u.list;
  }

  private member(byUser: Map<string, Members>, t: TransactionRecord): void {
    let u = byUser.get(t.userId);
    if (!u) byUser.set(t.userId, (u = { list: [], gone: new Set() }));
    // deleted and set again (the same object): still in the list
    if (!(u.gone.size > 0 && u.gone.delete(t))) u.list.push(t);
  }

  private compact(byUser: Map<string, Members>, userId: string, u: Members): void {
    if (u.gone.size === 0) return;
    u.list = u.list.filter((t) => !u.gone.has(t));
    u.gone.clear();
    if (u.list.length === 0) byUser.delete(userId);
  }

  protected override added(t: TransactionRecord): void {
    if (this.byUser) this.member(this.byUser, t);
    for (const w of this.watchers) w.added(t);
  }
  protected override removed(t: TransactionRecord): void {
    const u = this.byUser?.get(t.userId);
    if (u) {
      u.gone.add(t);
      // dropped from the list once they are half of it, so a deleted user's records are not kept
      if (u.gone.size * 2 > u.list.length) this.compact(this.byUser!, t.userId, u);
    }
    for (const w of this.watchers) w.removed(t);
  }
  protected override cleared(): void {
    this.byUser = undefined;
    for (const w of this.watchers) w.cleared();
  }
}

export interface Store {
  readonly clock: Clock;
  readonly ids: IdSource;
  clients: Map<string, ClientRecord>;
  users: Map<string, UserRecord>;
  tokens: Map<string, TokenRecord>;
  codes: Map<string, CodeRecord>;
  refreshTokens: Map<string, RefreshRecord>;
  accounts: Map<string, AccountRecord>;
  transactions: TransactionTable;
  nextSeq(): number;
  userByExternalId(externalUserId: string): UserRecord | undefined;
  /** Per-area state that other modules keep (credentials, webhooks, budgets...). */
  area<T>(name: string, create: () => T): T;
  /** Removes a user and everything of theirs, in every area. */
  deleteUser(userId: string): void;
  onUserDeleted(fn: (userId: string) => void): void;
  reset(): void;
}

export class MemoryStore implements Store {
  clients = new Map<string, ClientRecord>();
  users = new Map<string, UserRecord>();
  tokens = new Map<string, TokenRecord>();
  codes = new Map<string, CodeRecord>();
  refreshTokens = new Map<string, RefreshRecord>();
  accounts = new Map<string, AccountRecord>();
  transactions = new TransactionTable();
  private readonly externalIndex = new Map<string, string>();
  private readonly areas = new Map<string, unknown>();
  /** Area state loaded from a snapshot, applied when the area is first used. */
  private pendingAreas = new Map<string, Record<string, unknown>>();
  private readonly userDeletedHooks: Array<(userId: string) => void> = [];
  private seq = 0;

  constructor(
    readonly clock: Clock,
    readonly ids: IdSource,
  ) {}

  nextSeq(): number {
    return ++this.seq;
  }

  /** n seqs at once: the first is the returned number + 1. */
  reserveSeq(n: number): number {
    const base = this.seq;
    this.seq += n;
    return base;
  }

  addUser(u: UserRecord): void {
    this.users.set(u.id, u);
    if (u.externalUserId !== undefined) this.externalIndex.set(u.externalUserId, u.id);
  }

  userByExternalId(externalUserId: string): UserRecord | undefined {
    const id = this.externalIndex.get(externalUserId);
    return id ? this.users.get(id) : undefined;
  }

  area<T>(name: string, create: () => T): T {
    let a = this.areas.get(name) as T | undefined;
    if (a === undefined) {
      a = create();
      const saved = this.pendingAreas.get(name);
      if (saved && a && typeof a === 'object') {
        Object.assign(a as object, saved);
        this.pendingAreas.delete(name);
      }
      this.areas.set(name, a);
    }
    return a;
  }

  /** Everything, for persistence (Maps and Sets are encoded by the persister). */
  snapshot(): Record<string, unknown> {
    const areas: Record<string, unknown> = Object.fromEntries(this.pendingAreas);
    for (const [name, a] of this.areas) areas[name] = a;
    return {
      clients: this.clients,
      users: this.users,
      tokens: this.tokens,
      codes: this.codes,
      refreshTokens: this.refreshTokens,
      accounts: this.accounts,
      transactions: this.transactions,
      seq: this.seq,
      idCounter: this.ids.counter,
      areas,
    };
  }

  restore(state: Record<string, unknown>): void {
    const map = <T>(k: string) => (state[k] instanceof Map ? (state[k] as Map<string, T>) : new Map<string, T>());
    this.clients = map<ClientRecord>('clients');
    this.users = new Map();
    this.externalIndex.clear();
    for (const u of map<UserRecord>('users').values()) this.addUser(u);
    this.tokens = map<TokenRecord>('tokens');
    this.codes = map<CodeRecord>('codes');
    this.refreshTokens = map<RefreshRecord>('refreshTokens');
    this.accounts = map<AccountRecord>('accounts');
    this.transactions = TransactionTable.from(map<TransactionRecord>('transactions'));
    this.seq = typeof state.seq === 'number' ? state.seq : 0;
    if (typeof state.idCounter === 'number') this.ids.counter = state.idCounter;
    this.areas.clear();
    this.pendingAreas = new Map(Object.entries((state.areas ?? {}) as Record<string, Record<string, unknown>>));
  }

  onUserDeleted(fn: (userId: string) => void): void {
    this.userDeletedHooks.push(fn);
  }

  deleteUser(userId: string): void {
    const u = this.users.get(userId);
    if (!u) return;
    this.users.delete(userId);
    if (u.externalUserId !== undefined) this.externalIndex.delete(u.externalUserId);
    for (const [k, t] of this.tokens) if (t.userId === userId) this.tokens.delete(k);
    for (const [k, c] of this.codes) if (c.userId === userId) this.codes.delete(k);
    for (const [k, r] of this.refreshTokens) if (r.userId === userId) this.refreshTokens.delete(k);
    for (const [k, a] of this.accounts) if (a.userId === userId) this.accounts.delete(k);
    for (const t of this.transactions.ofUser(userId)) this.transactions.delete(t.id);
    for (const fn of this.userDeletedHooks) fn(userId);
  }

  reset(): void {
    const keepClients = this.clients;
    this.users.clear();
    this.tokens.clear();
    this.codes.clear();
    this.refreshTokens.clear();
    this.accounts.clear();
    this.transactions.clear();
    this.externalIndex.clear();
    this.areas.clear();
    this.pendingAreas.clear();
    this.clients = keepClients;
  }
}
