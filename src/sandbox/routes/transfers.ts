// POST /api/v1/transfer (the Swagger's path; spec 2.7 names it "/transfer") and
// GET /api/v1/transfer/{id}/status. A transfer becomes a SignableOperation that moves
// CREATED -> EXECUTING -> EXECUTED, each change raising signable-operation:update.
import { EP } from '../../contract/index.js';
import { handleAll, type Handler, type RouteRow } from '../router.js';
import type { SandboxContext } from '../context.js';
import { plain } from '../http.js';
import type { AccountRecord, MemoryStore } from '../store.js';
import { plainJson } from './reports.js';
import { add, cmp, dec, neg, parseDecimal, toStr } from '../../contract/decimal.js';
import { readJson } from '../../contract/exact-json.js';
import { categoryId } from '../categories.js';

export interface SignableOperation {
  id: string;
  created: number;
  updated: number;
  status: 'CREATED' | 'EXECUTING' | 'EXECUTED' | 'FAILED' | 'CANCELLED';
  statusMessage: string;
  type: 'TRANSFER';
  underlyingId: string;
  userId: string;
  credentialsId: string | null;
}

interface TransferRecord {
  id: string;
  userId: string;
  sourceUri: string;
  sourceAccountId: string;
  destinationUri: string;
  kind: 'BANK_TRANSFER' | 'PAYMENT';
  amount: string;
  currency: string;
  destinationMessage?: string;
  sourceMessage?: string;
  dueDate?: number;
  operation: SignableOperation;
}

class TransferState {
  transfers = new Map<string, TransferRecord>();
}

const state = (store: MemoryStore) => store.area('transfers', () => new TransferState());

export type ParsedUri = { scheme: 'se' | 'platform' | 'se-pg' | 'se-bg'; value: string };

/** Source and destination URIs as spec 2.7 gives them; a string saying what is wrong otherwise. */
export function parseTransferUri(uri: string, role: 'source' | 'destination'): ParsedUri | string {
  const m = /^([a-z-]+):\/\/(.+)$/.exec(uri);
  if (!m) return `${role}Uri "${uri.slice(0, 60)}" is not a URI of the form scheme://identifier`;
  const [, scheme, rest] = m as unknown as [string, string, string];
  const allowed = role === 'source' ? ['se', 'platform'] : ['se', 'se-pg', 'se-bg'];
  if (!allowed.includes(scheme))
    return `${role}Uri scheme "${scheme}" is not allowed; use ${allowed.map((s) => `${s}://`).join(', ')}`;
  if (scheme === 'se' && !/^\d{8,20}$/.test(rest))
    return `${role}Uri se://${rest.slice(0, 40)}: expected se://<clearing number><account number>, digits only`;
  if (scheme === 'platform' && !/^[0-9a-f]{32}$/.test(rest))
    return `${role}Uri platform://${rest.slice(0, 40)}: expected platform://<account id> (32 hex characters)`;
  if (scheme === 'se-pg' && !/^\d{1,7}-?\d$/.test(rest))
    return `${role}Uri se-pg://${rest.slice(0, 40)}: a PlusGiro number has 2 to 8 digits`;
  if (scheme === 'se-bg' && !/^\d{3,4}-?\d{4}$/.test(rest))
    return `${role}Uri se-bg://${rest.slice(0, 40)}: a BankGiro number has 7 or 8 digits`;
  return { scheme: scheme as ParsedUri['scheme'], value: rest.replace('-', '') };
}

function findSource(store: MemoryStore, userId: string, uri: ParsedUri): AccountRecord | undefined {
  if (uri.scheme === 'platform') {
    const a = store.accounts.get(uri.value);
    return a && a.userId === userId ? a : undefined;
  }
  for (const a of store.accounts.values()) {
    if (a.userId === userId && a.accountNumber.replace(/\D/g, '') === uri.value) return a;
  }
  return undefined;
}

/** What the transfer handlers share: a transfer's status changes, and the booking an executed one makes. */
interface TransfersArea {
  ctx: SandboxContext;
  store: MemoryStore;
  move(t: TransferRecord, status: SignableOperation['status'], statusMessage: string): void;
  /** An executed transfer leaves the source account (and an own destination account) booked and balanced. */
  book(t: TransferRecord): void;
}

function transfersArea(ctx: SandboxContext): TransfersArea {
  const { store } = ctx;
  store.onUserDeleted((userId) => {
    for (const [id, t] of state(store).transfers) if (t.userId === userId) state(store).transfers.delete(id);
  });

  const move = (t: TransferRecord, status: SignableOperation['status'], statusMessage: string) => {
    if (!state(store).transfers.has(t.id)) return;
    t.operation = { ...t.operation, status, statusMessage, updated: ctx.clock.now() };
    ctx.events.emit(
      { event: 'signable-operation:update', userId: t.userId, content: { ...t.operation }, orderKey: t.operation.id },
      ctx.clock.now(),
    );
  };

  /** An executed transfer leaves the source account (and an own destination account) booked and balanced. */
  const book = (t: TransferRecord) => {
    const now = ctx.clock.now();
    const date = new Date(now).toISOString().slice(0, 10);
    const source = store.accounts.get(t.sourceAccountId);
    if (!source || source.userId !== t.userId) return;
    const own =
      t.kind === 'BANK_TRANSFER'
        ? [...store.accounts.values()].find(
            (a) =>
              a.userId === t.userId &&
              a.id !== source.id &&
              a.accountNumber.replace(/\D/g, '') === t.destinationUri.slice(5),
          )
        : undefined;
    const entry = (account: AccountRecord, amount: string, description: string, categoryCode: string) => {
      account.balance = toStr(add(dec(account.balance), dec(amount)));
      account.updated = now;
      const id = store.ids.next();
      store.transactions.set(id, {
        id,
        userId: t.userId,
        accountId: account.id,
        amount,
        currencyCode: t.currency,
        bookedDate: date,
        valueDate: date,
        description,
        originalDescription: description.toUpperCase(),
        categoryId: categoryId(categoryCode),
        status: 'BOOKED',
        type: t.kind === 'PAYMENT' ? 'PAYMENT' : 'TRANSFER',
        reference: t.destinationMessage,
        seq: store.nextSeq(),
        created: now,
        updated: now,
      });
    };
    const text =
      t.sourceMessage || (t.kind === 'PAYMENT' ? `Payment ${t.destinationUri}` : `Transfer to ${t.destinationUri}`);
    entry(
      source,
      toStr(neg(dec(t.amount))),
      text,
      own ? 'transfers:own.accounts' : t.kind === 'PAYMENT' ? 'expenses:misc.uncategorized' : 'transfers:own.accounts',
    );
    if (own) entry(own, t.amount, t.destinationMessage || `Transfer from ${source.name}`, 'transfers:own.accounts');
  };
  return { ctx, store, move, book };
}

function createTransfer({ ctx, store, move, book }: TransfersArea): Handler {
  return async (req, res) => {
    const user = req.user();
    const body = await plainJson(req, { optional: true });
    if (body === undefined || body === null) throw plain(400, 'The provided payload is empty.');
    if (typeof body !== 'object' || Array.isArray(body)) throw plain(400, 'the body must be a JSON object (Transfer)');
    const b = body as Record<string, unknown>;
    for (const k of ['sourceUri', 'destinationUri', 'currency']) {
      if (typeof b[k] !== 'string' || (b[k] as string).trim() === '')
        throw plain(400, `${k} is required and must be a string`);
    }
    const source = parseTransferUri(b.sourceUri as string, 'source');
    if (typeof source === 'string') throw plain(400, source);
    const destination = parseTransferUri(b.destinationUri as string, 'destination');
    if (typeof destination === 'string') throw plain(400, destination);
    // the amount exactly as written: a JSON number's literal text, or a decimal string
    let amountText: string | undefined;
    if (typeof b.amount === 'number')
      amountText = String(readJson<Record<string, unknown>>((await req.body()).toString('utf8')).amount);
    else if (typeof b.amount === 'string') amountText = b.amount.trim();
    if (amountText === undefined) throw plain(400, 'amount is required: a positive number');
    if (!/^\d+(\.\d+)?$/.test(amountText))
      throw plain(400, `amount must be a positive decimal number without exponent, got ${amountText.slice(0, 40)}`);
    const p = parseDecimal(amountText);
    if (p.unscaledValue <= 0n) throw plain(400, 'amount must be greater than zero');
    const currency = b.currency as string;
    if (!/^[A-Z]{3}$/.test(currency))
      throw plain(400, `currency must be an ISO 4217 code such as SEK, got "${currency.slice(0, 20)}"`);
    const kind = destination.scheme === 'se' ? 'BANK_TRANSFER' : 'PAYMENT';
    for (const k of ['destinationMessage', 'sourceMessage', 'credentialsId']) {
      if (b[k] !== undefined && b[k] !== null && typeof b[k] !== 'string') throw plain(400, `${k} must be a string`);
    }
    if (kind === 'PAYMENT' && !(typeof b.destinationMessage === 'string' && b.destinationMessage.trim())) {
      throw plain(400, 'destinationMessage is required for payments (se-pg:// and se-bg:// destinations)');
    }
    let dueDate: number | undefined;
    if (b.dueDate !== undefined && b.dueDate !== null) {
      dueDate = Number(b.dueDate);
      if (!Number.isSafeInteger(dueDate) || dueDate < 0)
        throw plain(400, 'dueDate must be an epoch time in milliseconds');
    }
    const account = findSource(store, user.id, source);
    if (!account) throw plain(404, `the source account ${b.sourceUri as string} does not belong to the user`);
    if (account.currencyCode !== currency)
      throw plain(400, `currency ${currency} does not match the source account's currency ${account.currencyCode}`);
    const now = ctx.clock.now();
    const id = store.ids.next();
    const t: TransferRecord = {
      id,
      userId: user.id,
      sourceUri: b.sourceUri as string,
      sourceAccountId: account.id,
      destinationUri: b.destinationUri as string,
      kind,
      amount: toStr(dec(amountText)),
      currency,
      destinationMessage: b.destinationMessage as string | undefined,
      sourceMessage: b.sourceMessage as string | undefined,
      dueDate,
      operation: {
        id: store.ids.next(),
        created: now,
        updated: now,
        status: 'CREATED',
        statusMessage: `The ${kind === 'PAYMENT' ? 'payment' : 'transfer'} has been created.`,
        type: 'TRANSFER',
        underlyingId: id,
        userId: user.id,
        credentialsId: (b.credentialsId as string | undefined) ?? account.credentialsIds[0] ?? null,
      },
    };
    state(store).transfers.set(id, t);
    ctx.events.emit(
      { event: 'signable-operation:update', userId: user.id, content: { ...t.operation }, orderKey: t.operation.id },
      now,
    );
    const delay = Math.max(1, ctx.options.authDelayMs);
    ctx.setTimeout(() => {
      move(t, 'EXECUTING', 'The transfer is being sent to your bank.');
      ctx.setTimeout(() => {
        if (!state(store).transfers.has(t.id)) return;
        const short = shortOfFunds(store.accounts.get(t.sourceAccountId), t.amount);
        if (short) return move(t, 'FAILED', `Insufficient funds: ${t.amount} ${currency} is more than ${short}.`);
        book(t);
        move(
          t,
          'EXECUTED',
          `The ${kind === 'PAYMENT' ? 'payment' : 'transfer'} of ${t.amount} ${currency} has been executed.`,
        );
      }, delay);
    }, delay);
    res.json(200, t.operation);
  };
}

/**
 * Why the source account cannot pay `amount`, or undefined when it can: what it has available is
 * its balance, or for a credit card or loan account with an available credit, that credit. Checked
 * when the transfer executes (the balance may have moved since it was created), as a bank does.
 */
function shortOfFunds(account: AccountRecord | undefined, amount: string): string | undefined {
  if (!account) return undefined;
  const credit = account.availableCredit !== undefined && (account.type === 'CREDIT_CARD' || account.type === 'LOAN');
  const available = credit ? account.availableCredit! : account.balance;
  if (cmp(dec(amount), dec(available)) <= 0) return undefined;
  return `the ${credit ? 'available credit' : 'balance'} of the source account, ${available} ${account.currencyCode}`;
}

function transferStatus({ store }: TransfersArea): Handler {
  return (req, res) => {
    const user = req.user();
    const t = state(store).transfers.get(req.params.id!);
    if (!t || t.userId !== user.id) throw plain(404, `transfer ${req.params.id!.slice(0, 64)} not found`);
    res.json(200, t.operation);
  };
}

const ROUTES: Array<RouteRow<TransfersArea>> = [
  [EP.transfers.create, createTransfer],
  [EP.transfers.status, transferStatus],
];

export function registerTransfers(ctx: SandboxContext): void {
  handleAll(ctx.handle, transfersArea(ctx), ROUTES);
}
