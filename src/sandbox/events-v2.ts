// Events v2 as the sandbox emits them when its data changes, with the bodies of the vendor's
// transactions-webhooks guide (test/fixtures/reference/examples/EVENT__*.json). Every function here
// puts an event on the bus that webhook delivery (./webhooks.ts) listens on; the delivery wraps the
// content in {context: {userId, externalUserId}, content, event} and signs it.
//
// The stable entry points other sandbox code calls (each call site one line):
// - emitV2(sink, event, userId, content): any v2 event with a content you built;
// - emitRefreshFinished(sink, credentials, source?): `refresh:finished` for credentials whose refresh
//   (or status change) ended;
// - emitAccountEvent(sink, 'account:created' | 'account:updated', account);
// - emitTransactionChanges(sink, userId, {inserted, updated, deleted}): per account,
//   `account-transactions:modified`, `account-booked-transactions:modified` when booked ones changed,
//   and `account-transactions:deleted` with the deleted ids;
// - withDataEvents(sink, userId, fn): runs fn and emits the account and transaction events for what
//   it changed in the user's data (a diff, for code that does not know what it changed).
// `sink` is the sandbox's store (its event bus is found from it), the SandboxContext, or anything with
// the store and the bus.
import type { V2Event } from '../contract/webhook-signature.js';
import type { EventBus } from './context.js';
import type { AccountRecord, MemoryStore, TransactionRecord } from './store.js';

export type V2Sink = MemoryStore | { store: MemoryStore; events: EventBus };

const buses = new WeakMap<MemoryStore, EventBus>();

/** Makes a store's emits reach this bus (the sandbox does it at start). */
export function attachEventBus(store: MemoryStore, events: EventBus): void {
  buses.set(store, events);
}

function parts(sink: V2Sink): { store: MemoryStore; events?: EventBus } {
  return 'events' in sink && 'store' in sink
    ? sink
    : { store: sink as MemoryStore, events: buses.get(sink as MemoryStore) };
}

/**
 * Emits one Events v2 event for a user. Delivery is in order per endpoint whatever the key; the
 * bus's orderKey is `v2:` + key (what it concerns: a credentials or account id), apart from v1's keys.
 */
export function emitV2(
  sink: V2Sink,
  event: V2Event,
  userId: string,
  content: Record<string, unknown>,
  key = userId,
): void {
  const { store, events } = parts(sink);
  events?.emit({ event, userId, content, orderKey: `v2:${key}` }, store.clock.now());
}

function userPart(sink: V2Sink, userId: string): { userId: string; externalUserId?: string } {
  const ext = parts(sink).store.users.get(userId)?.externalUserId;
  return { userId, ...(ext !== undefined ? { externalUserId: ext } : {}) };
}

/** What refresh:finished needs of credentials (the engine's CredRecord has it all). */
export interface RefreshedCredentials {
  id: string;
  userId: string;
  status: string;
  sessionExpiryDate?: number | null;
  detailedError?: { type: string; displayMessage: string; details: { reason: string; retryable: boolean } };
}

export type RefreshSource = 'OPERATION_SOURCE_API' | 'OPERATION_SOURCE_BACKGROUND' | 'OPERATION_SOURCE_STREAMING';

/** The refresh:finished content: the guide's fields, detailedError only when the status is not UPDATED. */
export function refreshFinishedContent(
  sink: V2Sink,
  c: RefreshedCredentials,
  source: RefreshSource = 'OPERATION_SOURCE_API',
): Record<string, unknown> {
  const { store } = parts(sink);
  const ext = store.users.get(c.userId)?.externalUserId;
  return {
    ...(ext !== undefined ? { externalUserId: ext } : {}),
    credentialsId: c.id,
    status: c.status,
    credentialsStatus: c.status,
    finished: store.clock.now(),
    source,
    ...(c.sessionExpiryDate != null ? { sessionExpiryDate: c.sessionExpiryDate } : {}),
    ...(c.status !== 'UPDATED' && c.detailedError ? { detailedError: c.detailedError } : {}),
  };
}

export function emitRefreshFinished(sink: V2Sink, c: RefreshedCredentials, source?: RefreshSource): void {
  emitV2(sink, 'refresh:finished', c.userId, refreshFinishedContent(sink, c, source), c.id);
}

/** account:created / account:updated: {userId, externalUserId, account: {id}} (the guide documents no body). */
export function accountEventContent(sink: V2Sink, a: Pick<AccountRecord, 'id' | 'userId'>): Record<string, unknown> {
  return { ...userPart(sink, a.userId), account: { id: a.id } };
}

export function emitAccountEvent(
  sink: V2Sink,
  event: 'account:created' | 'account:updated',
  a: Pick<AccountRecord, 'id' | 'userId'>,
): void {
  emitV2(sink, event, a.userId, accountEventContent(sink, a), a.id);
}

type Tx = Pick<TransactionRecord, 'id' | 'accountId' | 'bookedDate' | 'status'>;

export interface TransactionChanges {
  inserted?: readonly Tx[];
  updated?: readonly Tx[];
  deleted?: readonly Tx[];
}

interface Counts {
  inserted: number;
  updated: number;
  deleted: number;
  earliest?: string;
  latest?: string;
}

function count(c: Counts, kind: 'inserted' | 'updated' | 'deleted', t: Tx): void {
  c[kind]++;
  const d = t.bookedDate;
  if (d && (c.earliest === undefined || d < c.earliest)) c.earliest = d;
  if (d && (c.latest === undefined || d > c.latest)) c.latest = d;
}

/** account-transactions:modified's content (the guide's example shape). */
export function transactionsModifiedContent(
  sink: V2Sink,
  userId: string,
  accountId: string,
  c: Counts,
): Record<string, unknown> {
  return {
    ...userPart(sink, userId),
    account: { id: accountId },
    transactions: {
      ...(c.earliest !== undefined ? { earliestModifiedBookedDate: c.earliest } : {}),
      ...(c.latest !== undefined ? { latestModifiedBookedDate: c.latest } : {}),
      inserted: c.inserted,
      updated: c.updated,
      deleted: c.deleted,
    },
  };
}

/** Per account that changed: the modified event, the booked one when booked rows changed, the deleted ids. */
export function emitTransactionChanges(sink: V2Sink, userId: string, ch: TransactionChanges): void {
  const per = new Map<string, { all: Counts; booked: Counts; deleted: string[] }>();
  const at = (accountId: string) => {
    let p = per.get(accountId);
    if (!p)
      per.set(
        accountId,
        (p = {
          all: { inserted: 0, updated: 0, deleted: 0 },
          booked: { inserted: 0, updated: 0, deleted: 0 },
          deleted: [],
        }),
      );
    return p;
  };
  for (const kind of ['inserted', 'updated', 'deleted'] as const) {
    for (const t of ch[kind] ?? []) {
      const p = at(t.accountId);
      count(p.all, kind, t);
      if (t.status === 'BOOKED') count(p.booked, kind, t);
      if (kind === 'deleted') p.deleted.push(t.id);
    }
  }
  for (const [accountId, p] of per) {
    emitV2(
      sink,
      'account-transactions:modified',
      userId,
      transactionsModifiedContent(sink, userId, accountId, p.all),
      accountId,
    );
    if (p.booked.inserted + p.booked.updated + p.booked.deleted > 0)
      emitV2(
        sink,
        'account-booked-transactions:modified',
        userId,
        transactionsModifiedContent(sink, userId, accountId, p.booked),
        accountId,
      );
    if (p.deleted.length > 0)
      emitV2(
        sink,
        'account-transactions:deleted',
        userId,
        { ...userPart(sink, userId), account: { id: accountId }, transactions: { ids: p.deleted } },
        accountId,
      );
  }
}

const accountPrint = (a: AccountRecord) =>
  JSON.stringify([a.name, a.balance, a.type, a.closed, a.accountExclusion, a.availableCredit, a.reservedAmount]);
const txPrint = (t: TransactionRecord) =>
  `${t.accountId}\u0000${t.amount}\u0000${t.status}\u0000${t.bookedDate}\u0000${t.description}\u0000${t.categoryId}`;

/**
 * Runs fn, then emits account:created/account:updated and the transaction events for what fn changed
 * in the user's accounts and transactions. For code that does not track its own changes (a refresh's
 * data generation); costs one pass over the store's accounts and transactions before and after.
 */
export function withDataEvents<T>(sink: V2Sink, userId: string, fn: () => T): T {
  const { store } = parts(sink);
  const accountsBefore = new Map<string, string>();
  for (const a of store.accounts.values()) if (a.userId === userId) accountsBefore.set(a.id, accountPrint(a));
  const txBefore = new Map<string, { print: string; t: Tx }>();
  for (const t of store.transactions.ofUser(userId))
    txBefore.set(t.id, {
      print: txPrint(t),
      t: { id: t.id, accountId: t.accountId, bookedDate: t.bookedDate, status: t.status },
    });
  const out = fn();
  for (const a of store.accounts.values()) {
    if (a.userId !== userId) continue;
    const before = accountsBefore.get(a.id);
    if (before === undefined) emitAccountEvent(sink, 'account:created', a);
    else if (before !== accountPrint(a)) emitAccountEvent(sink, 'account:updated', a);
  }
  const inserted: Tx[] = [];
  const updated: Tx[] = [];
  for (const t of store.transactions.ofUser(userId)) {
    const before = txBefore.get(t.id);
    if (!before) inserted.push(t);
    else {
      if (before.print !== txPrint(t)) updated.push(t);
      txBefore.delete(t.id);
    }
  }
  const deleted = [...txBefore.values()].map((b) => b.t);
  if (inserted.length + updated.length + deleted.length > 0)
    emitTransactionChanges(sink, userId, { inserted, updated, deleted });
  return out;
}
