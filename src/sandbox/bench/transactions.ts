// POST /sandbox/transactions: new transactions on a bank-connected account, as the next refresh would
// bring them: categorised, the balance moved by exactly their sum, the transaction events fired, and
// /data/v2/transactions showing them at once (its index watches the shared map).
import { addDecimals, decimalString, parseDecimal } from '../../contract/decimal.js';
import type { SandboxContext } from '../context.js';
import { badRequest, notFound } from '../http.js';
import type { AccountRecord, TransactionRecord, UserRecord } from '../store.js';
import { categoryByCode, categoryId } from '../categories.js';
import { apiTransaction } from '../connector/state.js';
import { emitAccountEvent, emitTransactionChanges } from '../events-v2.js';
import { CredentialsState } from '../providers/engine.js';

const DAY = 86_400_000;
export const MAX_ADD = 1000;

/** Merchants a generated transaction may be, with their category. Expenses; incomes are below. */
const MERCHANTS: Array<[description: string, code: string, mcc: string]> = [
  ['ICA Supermarket', 'expenses:food.groceries', '5411'],
  ['Coop Konsum', 'expenses:food.groceries', '5411'],
  ['Espresso House', 'expenses:food.coffee', '5814'],
  ['Restaurang Pelikan', 'expenses:food.restaurants', '5812'],
  ['SL Access', 'expenses:transport.publictransport', '4111'],
  ['Circle K', 'expenses:transport.fuel', '5541'],
  ['Taxi Stockholm', 'expenses:transport.taxi', '4121'],
  ['H&M', 'expenses:shopping.clothes', '5651'],
  ['Elgiganten', 'expenses:shopping.electronics', '5732'],
  ['Spotify', 'expenses:entertainment.streaming', '5815'],
  ['Apotek Hjärtat', 'expenses:health.pharmacy', '5912'],
  ['Telia', 'expenses:home.communications', '4814'],
];
const INCOMES: Array<[string, string]> = [
  ['Refund', 'income:refund.other'],
  ['Interest', 'income:financial.interest'],
  ['Swish from friend', 'income:other.other'],
];

export interface ExplicitTransaction {
  amount: string;
  date: string;
  description: string;
  pending: boolean;
  categoryCode?: string;
  merchantName?: string;
}

export interface AddRequest {
  userId: string;
  accountId: string;
  count?: number;
  from?: string;
  to?: string;
  amountMin?: string;
  amountMax?: string;
  pending?: boolean;
  seed?: string;
  transactions?: ExplicitTransaction[];
}

/** A small deterministic PRNG (mulberry32) from a text seed. */
export function prng(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
  let a = (h << 13) | (h >>> 19);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
export function isDay(s: string): boolean {
  return ISO_DAY.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;
}
export function isDecimal(s: string): boolean {
  return /^[+-]?\d{1,15}(\.\d{1,4})?$/.test(s);
}

/** The user's account, refused when it is a connector's (those get their data by ingest). */
export function bankAccount(ctx: SandboxContext, user: UserRecord, accountId: string): AccountRecord {
  const a = ctx.store.accounts.get(accountId);
  if (!a || a.userId !== user.id) throw notFound(`user ${user.id} has no account ${accountId.slice(0, 64)}`);
  const creds = ctx.store.area('credentials', () => new CredentialsState()).records;
  if (!a.credentialsIds.some((c) => creds.has(c)))
    throw badRequest(
      `account ${a.id} is a connector account, not a bank-connected one: push its transactions with the connector API (bankctl connector transactions ingest)`,
      { field: 'accountId' },
    );
  return a;
}

/** Generated amounts: a whole number of cents from min to max inclusive, exact. */
function amountBetween(rnd: () => number, min: string, max: string): string {
  const scale = 2;
  const toCents = (s: string) => {
    const p = parseDecimal(s);
    return p.scale <= scale
      ? p.unscaledValue * 10n ** BigInt(scale - p.scale)
      : p.unscaledValue / 10n ** BigInt(p.scale - scale);
  };
  const lo = toCents(min);
  const hi = toCents(max);
  const span = hi - lo + 1n;
  const pick = lo + (BigInt(Math.floor(rnd() * 2 ** 32)) * span) / 2n ** 32n;
  return decimalString(pick, scale);
}

function generated(r: AddRequest, today: number): ExplicitTransaction[] {
  const rnd = prng(r.seed ?? `${r.accountId}:${today}:${Math.random()}`);
  const to = r.to ? Date.parse(`${r.to}T00:00:00Z`) : Math.floor(today / DAY) * DAY;
  const from = r.from ? Date.parse(`${r.from}T00:00:00Z`) : to - 29 * DAY;
  const days = Math.round((to - from) / DAY) + 1;
  const out: ExplicitTransaction[] = [];
  for (let i = 0; i < (r.count ?? 0); i++) {
    const amount = amountBetween(rnd, r.amountMin ?? '-500.00', r.amountMax ?? '-5.00');
    const date = new Date(from + Math.floor(rnd() * days) * DAY).toISOString().slice(0, 10);
    const income = !amount.startsWith('-') && !/^0(\.0+)?$/.test(amount);
    const [description, code] = income
      ? INCOMES[Math.floor(rnd() * INCOMES.length)]!
      : MERCHANTS[Math.floor(rnd() * MERCHANTS.length)]!;
    out.push({
      amount,
      date,
      description,
      pending: r.pending ?? false,
      categoryCode: code,
      merchantName: income ? undefined : description,
    });
  }
  return out.sort((a, b) => a.date.localeCompare(b.date));
}

/** Adds the transactions; answers their ids and the account's new balance. */
export function addTransactions(
  ctx: SandboxContext,
  user: UserRecord,
  account: AccountRecord,
  r: AddRequest,
  idOf: (i: number) => string = () => ctx.store.ids.next(),
): { ids: string[]; accountId: string; balance: string } {
  const { store } = ctx;
  const now = ctx.clock.now();
  const list = r.transactions ?? generated(r, now);
  const recs: TransactionRecord[] = list.map((t, i) => {
    const code = t.categoryCode ?? (t.amount.startsWith('-') ? 'expenses:misc.uncategorized' : 'income:other.other');
    const id = idOf(i);
    const merchant = MERCHANTS.find((m) => m[0] === t.description);
    return {
      id,
      userId: user.id,
      accountId: account.id,
      amount: t.amount,
      currencyCode: account.currencyCode,
      bookedDate: t.date,
      valueDate: t.date,
      description: t.description,
      originalDescription: t.description.toUpperCase(),
      categoryId: categoryId(code),
      status: t.pending ? 'PENDING' : 'BOOKED',
      type: 'DEFAULT',
      providerTransactionId: `sandbox-${id.slice(0, 12)}`,
      ...(t.merchantName ? { merchantName: t.merchantName } : {}),
      ...(merchant ? { merchantCategoryCode: merchant[2] } : {}),
      seq: store.nextSeq(),
      created: now,
      updated: now,
    };
  });
  for (const t of recs) store.transactions.set(t.id, t);
  if (recs.length > 0) {
    account.balance = addDecimals([account.balance, ...recs.map((t) => t.amount)]);
    account.updated = now;
  }
  const credentialsId = account.credentialsIds[0]!;
  ctx.events.emitMany(
    'transaction:create',
    user.id,
    recs.length,
    () => credentialsId,
    (i) => ({ ...apiTransaction(recs[i]!), userId: user.id, credentialsId }),
    now,
  );
  emitTransactionChanges(ctx, user.id, { inserted: recs });
  if (recs.length > 0) emitAccountEvent(ctx, 'account:updated', account);
  return { ids: recs.map((t) => t.id), accountId: account.id, balance: account.balance };
}

/** A category code that exists, else the 400 naming the field. */
export function checkCategory(code: string, field: string): void {
  if (!categoryByCode(code) || !code.includes('.'))
    throw badRequest(
      `${field}: unknown category code "${code.slice(0, 60)}" (use a leaf such as expenses:food.groceries)`,
      {
        field,
      },
    );
}
