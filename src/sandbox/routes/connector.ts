// The connector (connector-api.md section 4, without webhooks and GET /version): users, accounts,
// transaction ingest, delete and update, the batch endpoint and token generation, with exactly the
// documented statuses. Amounts stay exact: numbers are read as their source text.
import { ALL_SCOPES, EP } from '../../contract/index.js';
import { dec, sub, toStr } from '../../contract/decimal.js';
import { isLocale, MARKET_DEFAULT_LOCALE, marketCurrency } from '../../contract/markets.js';
import { ACCOUNT_TYPES } from '../../contract/vocabulary.js';
import {
  BALANCE_IGNORED_TYPE,
  EXCLUSIONS,
  ExactNumber,
  amount,
  JsonSyntaxError,
  MAX_BATCH_ENTITIES,
  MAX_TOKEN_TTL,
  MAX_TRANSACTIONS_PER_REQUEST,
  WireError,
  bool,
  id,
  isKnownMarket,
  obj,
  oneOf,
  parseExactJson,
  str,
  stringArray,
  toPlain,
  validateAccount,
  validateContainer,
  validateUser,
  type TransactionContainer,
  type UserEntity,
} from '../../contract/connector-wire.js';
import type { EventBus, SandboxContext } from '../context.js';
import { v2Transaction } from './read-views.js';
import { CredentialsState } from '../providers/engine.js';
import { envelope, HttpFailure, mediaType } from '../http.js';
import { ConnectorTokens, handleAll, type Handler, type Req, type RouteRow } from '../router.js';
import type { AccountRecord, MemoryStore, TransactionRecord, UserRecord } from '../store.js';
import { connectorState, type ConnectorState, ensureConnector, isoDay } from '../connector/state.js';
import { parseIngestBodyAt } from '../connector/ingest-body.js';
import { IngestBatch, notesOf, payloadOf, transactionRecord, uncategorized } from '../connector/batch.js';
import { emitAccountEvent, emitTransactionChanges } from '../events-v2.js';

const INGEST_MAX_BODY = 32 * 1024 * 1024;
const BATCH_MAX_BODY = 128 * 1024 * 1024;

const badRequest = (message: string, details?: Record<string, unknown>) =>
  envelope(400, 'request.invalid', message, details);
/**
 * An unknown user: 401 where the spec says so (users, accounts, batch, tokens); 404 on the three
 * transaction endpoints, as the vendor's reference lists them ("404 User with the given external id
 * not found"; the spec said 401).
 */
const userNotFound = (ext: string, status: 401 | 404 = 401) =>
  envelope(status, 'user.not_found', `user "${clip(ext)}" not found`);

function clip(s: string, n = 80): string {
  return s.length > n ? `${s.slice(0, n)}...` : s;
}

/** The JSON body with numbers kept as their text; 400/415 like req.json(). */
async function exactBody(req: Req): Promise<unknown> {
  const buf = await req.body();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw badRequest('the body is not valid UTF-8');
  }
  if (text.trim() === '') throw badRequest('a JSON body is required');
  const type = mediaType(req.raw);
  if (type && !type.endsWith('json'))
    throw envelope(
      415,
      'request.unsupported_media_type',
      `expected a JSON body (Content-Type: application/json), got ${clip(type, 100)}`,
    );
  try {
    return parseExactJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw badRequest(`malformed JSON body: ${err.message}`);
    throw err;
  }
}

/** An ingest body the fast path read, kept so that its transactions are made when read (batch.ts). */
interface KeptBody {
  body: Buffer;
  starts: Int32Array;
}

/**
 * The validated CreateTransactionAccountContainer of an ingest body: the one-pass reader when it
 * is sure of the answer (with the body kept), else exactBody and validateContainer (every error
 * comes from there).
 */
async function ingestBody(req: Req): Promise<{ c: TransactionContainer; kept?: KeptBody }> {
  const buf = await req.body();
  const type = mediaType(req.raw);
  if (!type || type.endsWith('json')) {
    const p = parseIngestBodyAt(buf);
    if (p) return { c: p.container, kept: { body: buf, starts: p.starts } };
  }
  const body = await exactBody(req);
  return { c: valid(() => validateContainer(body, 'create')) };
}

/** Runs a validator, turning a WireError into a 400 naming the field. */
function valid<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof WireError) throw badRequest(err.message, { field: err.field });
    throw err;
  }
}

function listed(ids: string[]): string {
  return (
    ids
      .slice(0, 5)
      .map((x) => `"${clip(x, 60)}"`)
      .join(', ') + (ids.length > 5 ? ` and ${ids.length - 5} more` : '')
  );
}

/** What the connector's handlers share: the store, the events, and the rules every call applies. */
interface ConnectorArea {
  store: MemoryStore;
  events: EventBus;
  state: () => ConnectorState;
  /**
   * The user of a path, with the credentials rule of account and batch calls (401 otherwise); an
   * unknown user is `unknown` (401, or 404 for the transaction endpoints).
   */
  userFor(ext: string, credentials: 'check' | 'create' | 'none', unknown?: 401 | 404): UserRecord;
  setUser(user: UserRecord, u: UserEntity, market: string): void;
  accountOf(ext: string, accountExt: string): { user: UserRecord; account: AccountRecord };
  /** Ingest of one CreateTransactionAccountContainer: all or nothing. */
  ingest(user: UserRecord, c: TransactionContainer, kept?: KeptBody): void;
}

function connectorArea(ctx: SandboxContext): ConnectorArea {
  const { store, events } = ctx;
  const state = () => connectorState(store);

  /** The user of a path, with the credentials rule of account and batch calls (401 otherwise). */
  function userFor(ext: string, credentials: 'check' | 'create' | 'none', unknown: 401 | 404 = 401): UserRecord {
    const user = store.userByExternalId(ext);
    if (!user) throw userNotFound(ext, unknown);
    if (credentials === 'none') return user;
    if (!user.connector && credentials === 'check' && state().of(user.id).accounts.size === 0) {
      throw envelope(401, 'user.no_credentials', `user "${clip(ext)}" has no credentials`);
    }
    const mine = user.connector?.credentialsId;
    const others = new Set<string>();
    for (const a of store.accounts.values()) {
      if (a.userId !== user.id) continue;
      for (const c of a.credentialsIds) if (c !== mine) others.add(c);
    }
    // credentials connected through /api/v1/credentials, with or without accounts yet
    for (const c of store.area('credentials', () => new CredentialsState()).records.values())
      if (c.userId === user.id && c.id !== mine) others.add(c.id);
    if (others.size > 0)
      throw envelope(401, 'user.multiple_credentials', `user "${clip(ext)}" has more than one set of credentials`);
    ensureConnector(store, user);
    return user;
  }

  function setUser(user: UserRecord, u: UserEntity, market: string): void {
    user.market = market;
    user.locale = u.locale ?? (user.market === market && user.locale ? user.locale : MARKET_DEFAULT_LOCALE[market]!);
    const c = ensureConnector(store, user);
    c.token = u.token;
    if (u.blocked !== undefined) c.blocked = u.blocked;
    if (u.label !== undefined) c.label = u.label;
  }

  function accountOf(ext: string, accountExt: string): { user: UserRecord; account: AccountRecord } {
    const user = userFor(ext, 'check');
    const account = state().of(user.id).accounts.get(accountExt);
    if (!account) throw envelope(404, 'account.not_found', `account "${clip(accountExt)}" not found`);
    return { user, account };
  }

  const area: ConnectorArea = {
    store,
    events,
    state,
    userFor,
    setUser,
    accountOf,
    ingest: (user, c, kept) => ingest(area, user, c, kept),
  };
  return area;
}

/**
 * Ingest of one CreateTransactionAccountContainer: all or nothing. With the body kept (the fast
 * path read it) and no pending transaction to replace, the transactions are stored as that body
 * (IngestBatch), their records made when first read; otherwise as records now.
 */
function ingest(
  { store, events, state }: Pick<ConnectorArea, 'store' | 'events' | 'state'>,
  user: UserRecord,
  c: TransactionContainer,
  kept?: KeptBody,
): void {
  const st = state().of(user.id);
  if (st.accounts.size === 0)
    throw envelope(412, 'account.none', `no accounts found for user "${clip(user.externalUserId ?? user.id)}"`);
  const accounts: AccountRecord[] = [];
  for (const ta of c.transactionAccounts) {
    const a = st.accounts.get(ta.externalId!);
    if (!a)
      throw badRequest(`account "${clip(ta.externalId!)}" does not exist`, {
        field: 'transactionAccounts.externalId',
      });
    accounts.push(a);
  }
  const seen = new Set<string>();
  const gone: string[] = [];
  const existing: string[] = [];
  // each externalId hashed once, for its look-up here and its insertion below
  const index = st.transactions;
  const epoch = index.epoch;
  let total = 0;
  for (const ta of c.transactionAccounts) total += ta.transactions.length;
  const hashes = new Int32Array(total);
  let k = 0;
  for (const ta of c.transactionAccounts) {
    for (const t of ta.transactions) {
      if (seen.has(t.externalId))
        throw badRequest(`transaction "${clip(t.externalId)}" appears twice in the request`, {
          field: 'transactions.externalId',
        });
      seen.add(t.externalId);
      if (t.pendingIds) kept = undefined;
      const h = (hashes[k++] = index.hashOf(t.externalId));
      if (st.deleted.size > 0 && st.deleted.has(t.externalId)) gone.push(t.externalId);
      else if (index.hasHashed(t.externalId, h)) existing.push(t.externalId);
    }
  }
  if (gone.length > 0)
    throw envelope(410, 'transaction.deleted', `transaction ${listed(gone)} was already deleted`, {
      externalIds: gone,
    });
  if (existing.length > 0)
    throw envelope(409, 'transaction.exists', `transaction ${listed(existing)} already exists`, {
      externalIds: existing,
    });
  const now = store.clock.now();
  if (kept) {
    ingestKept({ store, events }, user, c, accounts, kept, hashes, epoch, now);
    return;
  }
  const created: TransactionRecord[] = [];
  const balances = c.type !== BALANCE_IGNORED_TYPE;
  try {
    for (let i = 0; i < c.transactionAccounts.length; i++) {
      const ta = c.transactionAccounts[i]!;
      const account = accounts[i]!;
      if (balances) setBalance(account, ta.balance, ta.reservedAmount);
      account.updated = now;
      for (const t of ta.transactions) {
        let categoryId = uncategorized(t.amount);
        if (t.pendingIds) {
          for (const pid of t.pendingIds) {
            const p = st.transactions.get(pid);
            if (!p || p.status !== 'PENDING') continue;
            categoryId = p.categoryId;
            st.transactions.delete(pid);
            store.transactions.delete(p.id);
          }
        }
        const rec = transactionRecord(store.ids.next(), store.nextSeq(), user.id, account, t, categoryId, now);
        store.transactions.set(rec.id, rec);
        // the hash of the look-up, unless the index drew a new seed since
        const h = hashes[created.length]!;
        if (index.epoch === epoch) index.setHashed(t.externalId, h, rec);
        else index.set(t.externalId, rec);
        created.push(rec);
      }
    }
  } finally {
    // one transaction:create per record, in order, after the records are in (nothing here changes
    // a record once made, so the content is what it was at its creation); made only when seen
    const locale = user.locale;
    events.emitMany(
      'transaction:create',
      user.id,
      created.length,
      (i) => created[i]!.accountId,
      (i) => v2Transaction(created[i]!, locale),
      now,
    );
    emitTransactionChanges(store, user.id, { inserted: created });
  }
}

/**
 * The balance an ingest, delete or update of transactions gives an account. The vendor's reference
 * (CreateTransactionAccountEntity, UpdateTransactionAccountEntity): "If a reserved amount is supplied
 * will the accounts balance be set to the supplied `balance` minus the supplied reserved amount".
 * The stored balance then already leaves the reservation out, so the reserved amount an account was
 * created with (which the reads subtract for the available balance) no longer applies: cleared, or
 * the reads would take the reservation off twice.
 */
function setBalance(account: AccountRecord, balance: string, reserved: string | undefined): void {
  account.balance = reserved === undefined ? balance : toStr(sub(dec(balance), dec(reserved)));
  delete account.reservedAmount;
}

/**
 * The ingest of a body the fast path read, with nothing to replace: its transactions kept as the
 * body (IngestBatch), each with the id, seq and time it would have had as a record made now. The
 * events are those of ingest(), their content made from the body when seen.
 */
function ingestKept(
  { store, events }: Pick<ConnectorArea, 'store' | 'events'>,
  user: UserRecord,
  c: TransactionContainer,
  accounts: AccountRecord[],
  kept: KeptBody,
  hashes: Int32Array,
  epoch: number,
  now: number,
): void {
  const index = connectorState(store).of(user.id).transactions;
  const n = hashes.length;
  const ends = new Int32Array(accounts.length);
  const balances = c.type !== BALANCE_IGNORED_TYPE;
  let total = 0;
  for (let k = 0; k < accounts.length; k++) {
    const ta = c.transactionAccounts[k]!;
    const account = accounts[k]!;
    if (balances) setBalance(account, ta.balance, ta.reservedAmount);
    account.updated = now;
    ends[k] = total += ta.transactions.length;
  }
  const batch = new IngestBatch(
    store.transactions,
    index,
    user.id,
    kept.body,
    kept.starts,
    accounts.map((a) => ({ id: a.id, currencyCode: a.currencyCode })),
    ends,
    store.ids.reserve(n),
    store.reserveSeq(n),
    now,
  );
  store.transactions.addBatch(batch);
  const changed: Array<Pick<TransactionRecord, 'id' | 'accountId' | 'bookedDate' | 'status'>> = new Array(n);
  let i = 0;
  for (let k = 0; k < accounts.length; k++) {
    const accountId = accounts[k]!.id;
    for (const t of c.transactionAccounts[k]!.transactions) {
      // the hash of the look-up, unless the index drew a new seed since
      index.addLazy(batch, i, t.externalId, index.epoch === epoch ? hashes[i] : undefined);
      changed[i++] = { id: '', accountId, bookedDate: isoDay(t.date), status: t.pending ? 'PENDING' : 'BOOKED' };
    }
  }
  const locale = user.locale;
  events.emitMany(
    'transaction:create',
    user.id,
    n,
    (i) => changed[i]!.accountId,
    // made from the body, which does not change: the transaction as it was created
    (i) => v2Transaction(batch.record(i), locale),
    now,
    { deferred: true },
  );
  emitTransactionChanges(store, user.id, { inserted: changed });
}

function createUser({ store, setUser }: ConnectorArea): Handler {
  return async (req, res) => {
    const body = await exactBody(req);
    const u = valid(() => validateUser(body));
    if (u.market === undefined) throw badRequest('market is required', { field: 'market' });
    if (!isKnownMarket(u.market))
      throw envelope(404, 'market.not_found', `market "${clip(u.market, 10)}" does not exist`);
    if (u.locale !== undefined && !isLocale(u.locale))
      throw badRequest(`unsupported locale "${clip(u.locale, 16)}"`, { field: 'locale' });
    if (store.userByExternalId(u.externalId))
      throw envelope(409, 'user.exists', `user "${clip(u.externalId)}" already exists`);
    const user: UserRecord = {
      id: store.ids.next(),
      externalUserId: u.externalId,
      market: u.market,
      locale: '',
      created: store.clock.now(),
      clientId: req.auth?.clientId,
    };
    setUser(user, u, u.market);
    store.addUser(user);
    res.empty(204);
  };
}

function updateUser({ userFor, setUser }: ConnectorArea): Handler {
  return async (req, res) => {
    const body = await exactBody(req);
    const u = valid(() => validateUser(body));
    const ext = req.params.externalUserId!;
    if (u.externalId !== ext) throw badRequest('externalId in the body must match the path', { field: 'externalId' });
    if (u.market !== undefined && !isKnownMarket(u.market))
      throw badRequest(`unknown market "${clip(u.market, 10)}"`, { field: 'market' });
    if (u.locale !== undefined && !isLocale(u.locale))
      throw badRequest(`unsupported locale "${clip(u.locale, 16)}"`, { field: 'locale' });
    const user = userFor(ext, 'none');
    setUser(user, u, u.market ?? user.market);
    res.empty(204);
  };
}

function deleteUser({ store, userFor }: ConnectorArea): Handler {
  return (req, res) => {
    const user = userFor(req.params.externalUserId!, 'none');
    store.deleteUser(user.id);
    res.empty(204);
  };
}

function createAccounts({ store, state, userFor }: ConnectorArea): Handler {
  return async (req, res) => {
    const body = await exactBody(req);
    const accounts = valid(() => {
      const o = obj(body, 'body');
      if (!Array.isArray(o.accounts)) throw new WireError('accounts', 'is required (an array of AccountEntity)');
      if (o.accounts.length > 10_000) throw new WireError('accounts', 'more than 10000 accounts in one request');
      return o.accounts.map((a, i) => validateAccount(a, `accounts[${i}].`));
    });
    const seen = new Set<string>();
    for (const a of accounts) {
      if (seen.has(a.externalId))
        throw badRequest(`account "${clip(a.externalId)}" appears twice in the request`, { field: 'accounts' });
      seen.add(a.externalId);
    }
    const user = userFor(req.params.externalUserId!, 'create');
    const st = state().of(user.id);
    const existing = accounts.filter((a) => st.accounts.has(a.externalId)).map((a) => a.externalId);
    if (existing.length > 0)
      throw envelope(409, 'account.exists', `account ${listed(existing)} already exists`, { externalIds: existing });
    const now = store.clock.now();
    for (const a of accounts) {
      const rec: AccountRecord = {
        id: store.ids.next(),
        userId: user.id,
        credentialsIds: [user.connector!.credentialsId],
        externalId: a.externalId,
        name: a.name,
        accountNumber: a.number,
        type: a.type,
        balance: a.balance,
        currencyCode: marketCurrency(user.market),
        availableCredit: a.availableCredit,
        reservedAmount: a.reservedAmount,
        closed: a.closed ?? false,
        accountExclusion: a.exclusion ?? 'NONE',
        excluded: a.exclusion !== undefined && a.exclusion !== 'NONE',
        favored: false,
        flags: a.flags ?? [],
        payload: a.payload ? (toPlain(a.payload) as Record<string, unknown>) : undefined,
        created: now,
        updated: now,
      };
      store.accounts.set(rec.id, rec);
      st.accounts.set(a.externalId, rec);
      emitAccountEvent(store, 'account:created', rec);
    }
    res.empty(204);
  };
}

/**
 * Properties of an AccountEntity (ingest) that the reference's UpdateAccountEntity does not have,
 * with where each is set instead. Sent to PUT they were dropped with a 204: a partner's "update the
 * balance" looked done and changed nothing.
 */
const NOT_UPDATABLE: Record<string, string> = {
  balance:
    'is not a property of an account update (UpdateAccountEntity: name, closed, exclusion, type, availableCredit); ' +
    "an account's balance comes with its transactions: POST /connector/users/{externalUserId}/transactions",
  reservedAmount:
    'is not a property of an account update; it comes with the transactions: ' +
    'POST /connector/users/{externalUserId}/transactions',
};

function updateAccount({ store, accountOf }: ConnectorArea): Handler {
  return async (req, res) => {
    const body = await exactBody(req);
    const upd = valid(() => {
      const o = obj(body, 'body');
      for (const [field, message] of Object.entries(NOT_UPDATABLE))
        if (o[field] !== undefined && o[field] !== null) throw new WireError(field, message);
      return {
        closed: bool(o, 'closed', ''),
        exclusion: oneOf(o, 'exclusion', '', EXCLUSIONS, false),
        name: str(o, 'name', '', false),
        // UpdateAccountEntity of the reference also changes these two
        type: oneOf(o, 'type', '', ACCOUNT_TYPES, false),
        availableCredit: amount(o, 'availableCredit', '', false),
      };
    });
    if (upd.name !== undefined && upd.name.trim() === '') throw badRequest('name must not be empty', { field: 'name' });
    const { account } = accountOf(req.params.externalUserId!, req.params.externalAccountId!);
    if (upd.closed !== undefined) account.closed = upd.closed;
    if (upd.exclusion !== undefined) {
      account.accountExclusion = upd.exclusion;
      account.excluded = upd.exclusion !== 'NONE';
    }
    if (upd.name !== undefined) account.name = upd.name;
    if (upd.type !== undefined) account.type = upd.type;
    if (upd.availableCredit !== undefined) account.availableCredit = upd.availableCredit;
    account.updated = store.clock.now();
    emitAccountEvent(store, 'account:updated', account);
    res.empty(204);
  };
}

function deleteAccount({ store, state, accountOf }: ConnectorArea): Handler {
  return (req, res) => {
    const { user, account } = accountOf(req.params.externalUserId!, req.params.externalAccountId!);
    const st = state().of(user.id);
    for (const [ext, t] of st.transactions) {
      if (t.accountId !== account.id) continue;
      st.transactions.delete(ext);
      store.transactions.delete(t.id);
    }
    st.accounts.delete(req.params.externalAccountId!);
    store.accounts.delete(account.id);
    res.empty(204);
  };
}

function ingestTransactions({ userFor, ingest }: ConnectorArea): Handler {
  return async (req, res) => {
    const { c, kept } = await ingestBody(req);
    const user = userFor(req.params.externalUserId!, 'none', 404);
    ingest(user, c, kept);
    res.empty(204);
  };
}

function deleteTransactions({ store, state, userFor }: ConnectorArea): Handler {
  return async (req, res) => {
    const body = await exactBody(req);
    const c = valid(() => validateContainer(body, 'delete'));
    const user = userFor(req.params.externalUserId!, 'none', 404);
    const st = state().of(user.id);
    const targets: Array<{
      account: AccountRecord;
      balance: string;
      reserved?: string;
      records: TransactionRecord[];
    }> = [];
    const missing: string[] = [];
    for (const ta of c.transactionAccounts) {
      const account = st.accounts.get(ta.externalId!);
      if (!account)
        throw badRequest(`account "${clip(ta.externalId!)}" does not exist`, {
          field: 'transactionAccounts.externalId',
        });
      const records: TransactionRecord[] = [];
      for (const t of ta.transactions) {
        const r = st.transactions.get(t.externalId);
        if (!r || r.accountId !== account.id) missing.push(t.externalId);
        else records.push(r);
      }
      targets.push({ account, balance: ta.balance, reserved: ta.reservedAmount, records });
    }
    if (missing.length > 0)
      throw envelope(404, 'transaction.not_found', `transaction ${listed(missing)} not found`, {
        externalIds: missing.slice(0, 100),
      });
    const now = store.clock.now();
    for (const t of targets) {
      for (const r of t.records) {
        st.transactions.delete(r.externalId!);
        st.deleted.add(r.externalId!);
        store.transactions.delete(r.id);
      }
      if (c.type !== BALANCE_IGNORED_TYPE) setBalance(t.account, t.balance, t.reserved);
      t.account.updated = now;
    }
    emitTransactionChanges(store, user.id, { deleted: targets.flatMap((t) => t.records) });
    res.empty(204);
  };
}

function updateTransaction({ store, events, state, userFor }: ConnectorArea): Handler {
  return async (req, res) => {
    const body = await exactBody(req);
    const c = valid(() => validateContainer(body, 'update'));
    if (c.count !== 1)
      throw badRequest(`an update holds exactly one transaction, got ${c.count}`, { field: 'transactionAccounts' });
    const ta = c.transactionAccounts.find((a) => a.transactions.length === 1)!;
    const t = ta.transactions[0]!;
    const user = userFor(req.params.externalUserId!, 'none', 404);
    const st = state().of(user.id);
    let account = ta.externalId !== undefined ? st.accounts.get(ta.externalId) : undefined;
    if (!account && ta.platformId !== undefined) {
      const a = store.accounts.get(ta.platformId);
      if (a && a.userId === user.id) account = a;
    }
    if (!account)
      throw badRequest(`account "${clip(ta.externalId ?? ta.platformId ?? '')}" does not exist`, {
        field: 'transactionAccounts.externalId',
      });
    const pathId = req.params.externalTransactionId!;
    let rec = st.transactions.get(pathId);
    if (!rec && t.platformId !== undefined) {
      const r = store.transactions.get(t.platformId);
      if (r && r.userId === user.id) rec = r;
    }
    if (!rec) throw envelope(404, 'transaction.not_found', `transaction "${clip(pathId)}" not found`);
    if (rec.externalId !== undefined && t.externalId !== rec.externalId) {
      throw badRequest(
        `the transaction's externalId "${clip(t.externalId)}" does not match "${clip(rec.externalId)}"`,
        { field: 'transactions.externalId' },
      );
    }
    const now = store.clock.now();
    const day = isoDay(t.date);
    rec.accountId = account.id;
    rec.amount = t.amount;
    rec.currencyCode = account.currencyCode;
    rec.bookedDate = day;
    rec.valueDate = day;
    rec.description = t.description;
    rec.originalDescription = t.description;
    rec.type = t.type;
    if (t.pending !== undefined) rec.status = t.pending ? 'PENDING' : 'BOOKED';
    if (t.payload !== undefined) {
      rec.payload = payloadOf(t);
      rec.notes = notesOf(t);
    }
    // like the payload: changed only when given
    if (t.merchantName !== undefined) rec.merchantName = t.merchantName;
    if (t.merchantCategoryCode !== undefined) rec.merchantCategoryCode = t.merchantCategoryCode;
    if (t.counterparties !== undefined) rec.counterparties = t.counterparties;
    rec.updated = now;
    // set again so that indexes watching the map (the v2 read's date order) see the change
    store.transactions.set(rec.id, rec);
    setBalance(account, ta.balance, ta.reservedAmount);
    account.updated = now;
    events.emit(
      {
        event: 'transaction:update',
        userId: user.id,
        content: v2Transaction(rec, user.locale),
        orderKey: account.id,
      },
      now,
    );
    emitTransactionChanges(store, user.id, { updated: [rec] });
    res.empty(204);
  };
}

function batch({ userFor, ingest }: ConnectorArea): Handler {
  return async (req, res) => {
    const body = await exactBody(req);
    const { entities, withinLimit } = valid(() => {
      const o = obj(body, 'body');
      if (!Array.isArray(o.ingestEntities)) throw new WireError('ingestEntities', 'is required (an array)');
      if (o.ingestEntities.length > MAX_BATCH_ENTITIES)
        throw new WireError('ingestEntities', `more than ${MAX_BATCH_ENTITIES} entities in one batch`);
      const ids = new Set<string>();
      const list = o.ingestEntities.map((e, i) => {
        const path = `ingestEntities[${i}].`;
        const eo = obj(e, `ingestEntities[${i}]`);
        const entityId = id(eo, 'entityId', path)!;
        if (ids.has(entityId)) throw new WireError(`${path}entityId`, `"${clip(entityId)}" appears twice`);
        ids.add(entityId);
        return { entityId, externalUserId: id(eo, 'externalUserId', path)!, container: eo.container };
      });
      return { entities: list, withinLimit: bool(o, 'withinLimit', '') };
    });
    const statuses: Array<{ entityId: string; httpStatus: number; response: unknown }> = [];
    const containers: Array<TransactionContainer | HttpFailure> = entities.map((e) => {
      try {
        return valid(() => validateContainer(e.container, 'create'));
      } catch (err) {
        if (err instanceof HttpFailure) return err;
        throw err;
      }
    });
    if (withinLimit) {
      const total = containers.reduce((n, c) => n + (c instanceof HttpFailure ? 0 : c.count), 0);
      if (total > MAX_TRANSACTIONS_PER_REQUEST)
        throw badRequest(
          `withinLimit: ${total} transactions over all entities, more than ${MAX_TRANSACTIONS_PER_REQUEST}`,
          { field: 'withinLimit' },
        );
    }
    entities.forEach((e, i) => {
      const c = containers[i]!;
      try {
        if (c instanceof HttpFailure) throw c;
        ingest(userFor(e.externalUserId, 'check'), c);
        statuses.push({ entityId: e.entityId, httpStatus: 204, response: {} });
      } catch (err) {
        if (!(err instanceof HttpFailure)) throw err;
        statuses.push({ entityId: e.entityId, httpStatus: err.status, response: err.body });
      }
    });
    res.json(200, { statuses });
  };
}

function generateToken({ store }: ConnectorArea): Handler {
  return async (req, res) => {
    const body = await exactBody(req);
    const g = valid(() => {
      const o = obj(body, 'body');
      const userId = id(o, 'userId', '')!;
      if (o.scopes === undefined || o.scopes === null)
        throw new WireError('scopes', 'is required (an array of scope names)');
      const scopes = stringArray(o.scopes, 'scopes');
      if (scopes.length === 0) throw new WireError('scopes', 'must name at least one scope');
      const unknown = scopes.filter((s) => !ALL_SCOPES.includes(s));
      if (unknown.length > 0)
        throw new WireError(
          'scopes',
          `unknown scope ${unknown
            .slice(0, 3)
            .map((s) => `"${clip(s, 40)}"`)
            .join(', ')}`,
        );
      let ttl = 3600;
      if (o.ttl !== undefined && o.ttl !== null) {
        const text = o.ttl instanceof ExactNumber ? o.ttl.text : '';
        if (!/^\d+$/.test(text)) throw new WireError('ttl', 'must be a whole number of seconds');
        ttl = Number(text);
        if (ttl < 1 || ttl > MAX_TOKEN_TTL)
          throw new WireError('ttl', `must be between 1 and ${MAX_TOKEN_TTL} seconds (3 hours)`);
      }
      return { userId, scopes, ttl, origin: str(o, 'origin', '', false, 256) };
    });
    const user = store.users.get(g.userId) ?? store.userByExternalId(g.userId);
    if (!user) throw userNotFound(g.userId);
    const now = store.clock.now();
    const token = store.ids.secret(32);
    const expiresAt = now + g.ttl * 1000;
    store.tokens.set(token, {
      token,
      kind: 'user',
      clientId: req.auth?.clientId ?? 'connector',
      userId: user.id,
      scopes: new Set(g.scopes),
      expiresAt,
      issuedAt: now,
    });
    res.json(200, { token, expiry: expiresAt });
  };
}

/**
 * POST /sandbox/connector-tokens, authenticated with a current connector token: adds a new
 * token (returned) and, with {"retire": "<token>", "graceSeconds": N}, ends an old one after N s.
 */
function rotateConnectorToken({ store }: ConnectorArea): Handler {
  return async (req, res) => {
    if (req.auth?.scheme !== 'Token')
      throw envelope(
        403,
        'authorization.wrong_token_type',
        'renewing connector tokens takes a current connector token',
      );
    const raw = await req.body();
    let retire: string | undefined;
    let grace = 0;
    if (raw.length > 0) {
      const body = await exactBody(req);
      const o = valid(() => obj(body, 'body'));
      retire = valid(() => str(o, 'retire', '', false, 1024));
      if (o.graceSeconds !== undefined) {
        const g = o.graceSeconds instanceof ExactNumber ? Number(o.graceSeconds.text) : NaN;
        if (!Number.isInteger(g) || g < 0 || g > 86_400)
          throw badRequest('graceSeconds must be a whole number from 0 to 86400', { field: 'graceSeconds' });
        grace = g;
      }
    }
    const tokens = store.area('connector-tokens', () => new ConnectorTokens());
    const now = store.clock.now();
    if (retire !== undefined) {
      if (!tokens.isValid(retire, now))
        throw envelope(404, 'token.not_found', 'the token to retire is not a current connector token');
      tokens.retire(retire, now + grace * 1000);
    }
    const token = store.ids.secret(24);
    tokens.add(token);
    res.json(201, { token });
  };
}

const ROUTES: Array<RouteRow<ConnectorArea>> = [
  [EP.connector.createUser, createUser, { maxBody: 64 * 1024 }],
  [EP.connector.updateUser, updateUser, { maxBody: 64 * 1024 }],
  [EP.connector.deleteUser, deleteUser],
  [EP.connector.createAccounts, createAccounts, { maxBody: 8 * 1024 * 1024 }],
  [EP.connector.updateAccount, updateAccount, { maxBody: 64 * 1024 }],
  [EP.connector.deleteAccount, deleteAccount],
  [EP.connector.ingestTransactions, ingestTransactions, { maxBody: INGEST_MAX_BODY }],
  [EP.connector.deleteTransactions, deleteTransactions, { maxBody: INGEST_MAX_BODY }],
  [EP.connector.updateTransaction, updateTransaction, { maxBody: 1024 * 1024 }],
  [EP.connector.batch, batch, { maxBody: BATCH_MAX_BODY }],
  [EP.connector.generateToken, generateToken, { maxBody: 64 * 1024 }],
  [EP.sandbox.rotateConnectorToken, rotateConnectorToken, { maxBody: 16 * 1024 }],
];

export function registerConnector(ctx: SandboxContext): void {
  const area = connectorArea(ctx);
  ctx.store.onUserDeleted((userId) => area.state().users.delete(userId));
  handleAll(ctx.handle, area, ROUTES);
}
