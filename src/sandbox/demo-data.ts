// Deterministic demo data for the test providers (spec 2.2: "a refresh on a test provider generates
// demo data for CHECKING, SAVINGS, INVESTMENT, MORTGAGE and LOAN accounts").
//
// Everything derives from o.seed: account ids, and per day a PRNG seeded from (seed, date), so a
// given day always holds the same transactions with the same ids whatever `now` is. Running it again
// (a later refresh) is idempotent: known accounts get the credentials added and a fresh balance,
// known transactions are left as they are (user edits survive) except PENDING -> BOOKED, and only
// new days add transactions. Amounts are integer cents until they are written as decimal strings.
import { seededRandom } from './faults.js';
import { createHash } from 'node:crypto';
import type { AccountType } from '../contract/vocabulary.js';
import type { AccountRecord, MemoryStore, TransactionRecord } from './store.js';
import { categoryId } from './categories.js';
import { addDecimals } from '../contract/decimal.js';

export interface DemoDataOptions {
  userId: string;
  credentialsIds: string[];
  providerName: string;
  currencyCode: string;
  seed: string;
  now: number;
  /** How many months of history (default 6). */
  months?: number;
  /** Only accounts passing this are created and filled (account opt-in). */
  accountFilter?: (a: AccountRecord) => boolean;
  /** Market code (SE, GB...) for IBANs; guessed from the currency when absent. */
  market?: string;
}

export interface DemoHighlights {
  /** One unusually large expense on the checking account. */
  largeExpenseId?: string;
  /** Two identical card purchases (merchant, amount, day). */
  doubleChargeIds?: [string, string];
  /** The day the checking account's balance was at its lowest, and that balance. */
  lowBalance?: { date: string; balance: string };
}

export interface DemoResult {
  accounts: AccountRecord[];
  /** Every transaction of the run's accounts (new and already present), in date order. */
  transactions: TransactionRecord[];
  /** Transactions this run added. */
  created: TransactionRecord[];
  highlights: DemoHighlights;
}

const DAY = 86_400_000;

function hex(...parts: Array<string | number>): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);
}

/** mulberry32 (shared with fault injection), seeded from the first 32 bits of a hex digest. */
function prng(seedHex: string): () => number {
  return seededRandom(parseInt(seedHex.slice(0, 8), 16));
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
function isoDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Integer cents to an exact decimal string with two decimals. */
export function centsToDecimal(cents: number): string {
  const neg = cents < 0;
  const abs = Math.abs(cents);
  return `${neg ? '-' : ''}${Math.floor(abs / 100)}.${pad(abs % 100)}`;
}

// Prices are written in SEK-like units and scaled per currency by an integer ratio (num/den).
const SCALE: Record<string, [number, number]> = {
  SEK: [1, 1],
  NOK: [1, 1],
  DKK: [7, 10],
  CZK: [2, 1],
  HUF: [35, 1],
  INR: [8, 1],
  MXN: [17, 10],
  PLN: [4, 10],
  RON: [4, 10],
  BGN: [2, 10],
  BRL: [5, 10],
};
function scaler(currency: string): (cents: number) => number {
  const [num, den] = SCALE[currency] ?? [1, 10];
  return (c) => Math.round((c * num) / den);
}

const CURRENCY_MARKET: Record<string, string> = {
  SEK: 'SE',
  NOK: 'NO',
  DKK: 'DK',
  GBP: 'GB',
  EUR: 'DE',
  USD: 'US',
  PLN: 'PL',
};

/** A valid IBAN (ISO 13616 check digits) for a country with a numeric BBAN. */
function iban(country: string, bban: string): string {
  const cc = country === 'UK' ? 'GB' : country;
  const numeric = (bban + cc + '00').replace(/[A-Z]/g, (ch) => String(ch.charCodeAt(0) - 55));
  const check = 98n - (BigInt(numeric) % 97n);
  return `${cc}${pad(Number(check))}${bban}`;
}

function digits(rng: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(rng() * 10);
  return s;
}

const HOLDERS = [
  'Anna Andersson',
  'Erik Lindqvist',
  'Maria Nilsson',
  'Johan Berg',
  'Sara Holm',
  'Lukas Weber',
  'Emma Collins',
];

interface AccountPlan {
  key: string;
  type: AccountType;
  name: string;
  portfolioType?: string;
  /** Rough size of the balance in SEK cents before history (sign included). */
  baseCents: number;
  favored: boolean;
}

const PLANS: AccountPlan[] = [
  { key: 'checking', type: 'CHECKING', name: 'Everyday Account', baseCents: 0, favored: true },
  { key: 'savings', type: 'SAVINGS', name: 'Savings Account', baseCents: 8_540_000, favored: false },
  {
    key: 'investment',
    type: 'INVESTMENT',
    name: 'Investment Savings Account',
    portfolioType: 'ISK',
    baseCents: 12_375_050,
    favored: false,
  },
  { key: 'mortgage', type: 'MORTGAGE', name: 'Mortgage', baseCents: -238_500_000, favored: false },
  { key: 'loan', type: 'LOAN', name: 'Car Loan', baseCents: -11_240_000, favored: false },
];

/**
 * The accounts a demo refresh would create, without touching the store: what the opt-in step shows
 * (spec 2.1 additionalInfo). Balances are those generateDemoData will set when `now` is the same.
 */
export function planDemoAccounts(o: DemoDataOptions): AccountRecord[] {
  return generate(o, undefined).accounts;
}

/** Creates (or refreshes) the demo accounts and transactions in the store; returns the accounts. */
export function generateDemoData(store: MemoryStore, o: DemoDataOptions): AccountRecord[] {
  return generateDemoDataDetailed(store, o).accounts;
}

export function generateDemoDataDetailed(store: MemoryStore, o: DemoDataOptions): DemoResult {
  return generate(o, store);
}

interface Draft {
  acc: string;
  day: number;
  cents: number;
  description: string;
  code: string;
  type: string;
  merchant?: string;
  mcc?: string;
  reference?: string;
  /** Per-day index for the id. */
  n?: number;
}
/** One day of the history being drafted: its date parts, its PRNG, and where drafts go. */
interface DayContext {
  day: number;
  d: Date;
  /** Day of month, day of week, "YYYY-MM", the month's last day. */
  dom: number;
  dow: number;
  ym: string;
  lastDom: number;
  weekend: boolean;
  rng: () => number;
  /** A whole number from lo to hi, from the day's PRNG. */
  r: (lo: number, hi: number) => number;
  scale: (cents: number) => number;
  push: (d: Draft) => void;
  /** The days and month of the one-off events. */
  largeDay: number;
  doubleDay: number;
  refundDay: number;
  travelMonth: string;
}

/** Salary on the 25th, or the business day before when the 25th is a weekend. */
function salary({ day, dom, ym, scale, push, d }: DayContext): void {
  const salaryDom = (() => {
    const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 25)).getUTCDay();
    return t === 6 ? 24 : t === 0 ? 23 : 25;
  })();
  if (dom === salaryDom)
    push({
      acc: 'checking',
      day,
      cents: scale(3_850_000),
      description: 'Salary ACME AB',
      code: 'income:salary.other',
      type: 'DEFAULT',
      reference: `LON ${ym}`,
    });
}

/** The 26th: to the savings account and the investment account. */
function savingTransfers({ day, dom, scale, push }: DayContext): void {
  if (dom === 26) {
    push({
      acc: 'checking',
      day,
      cents: -scale(300_000),
      description: 'Transfer to Savings Account',
      code: 'transfers:savings.other',
      type: 'TRANSFER',
    });
    push({
      acc: 'savings',
      day,
      cents: scale(300_000),
      description: 'Transfer from Everyday Account',
      code: 'transfers:savings.other',
      type: 'TRANSFER',
    });
    push({
      acc: 'checking',
      day,
      cents: -scale(100_000),
      description: 'Monthly saving ISK',
      code: 'transfers:savings.investments',
      type: 'TRANSFER',
    });
    push({
      acc: 'investment',
      day,
      cents: scale(100_000),
      description: 'Deposit',
      code: 'transfers:savings.investments',
      type: 'TRANSFER',
    });
  }
}

/** The 27th: mortgage interest and amortization, the car loan. */
function loanPayments({ day, dom, ym, scale, push }: DayContext): void {
  if (dom === 27) {
    push({
      acc: 'checking',
      day,
      cents: -scale(431_250),
      description: 'Mortgage interest',
      code: 'expenses:home.mortgage-interest',
      type: 'PAYMENT',
      reference: `MORTGAGE ${ym}`,
    });
    push({
      acc: 'checking',
      day,
      cents: -scale(150_000),
      description: 'Mortgage amortization',
      code: 'transfers:payments.loan',
      type: 'TRANSFER',
    });
    push({
      acc: 'mortgage',
      day,
      cents: scale(150_000),
      description: 'Amortization',
      code: 'transfers:payments.loan',
      type: 'TRANSFER',
    });
    push({
      acc: 'checking',
      day,
      cents: -scale(215_000),
      description: 'Car loan payment',
      code: 'transfers:payments.loan',
      type: 'TRANSFER',
    });
    push({
      acc: 'loan',
      day,
      cents: scale(215_000),
      description: 'Repayment',
      code: 'transfers:payments.loan',
      type: 'TRANSFER',
    });
  }
}

/** The 28th (or the month's last day): the housing association fee. */
function housingFee({ day, dom, ym, lastDom, scale, push }: DayContext): void {
  if (dom === Math.min(28, lastDom))
    push({
      acc: 'checking',
      day,
      cents: -scale(395_000),
      description: 'HSB Housing association fee',
      code: 'expenses:home.rent',
      type: 'PAYMENT',
      reference: `AVGIFT ${ym}`,
    });
}

/** Monthly bills and subscriptions on their day of the month. */
function bills({ day, dom, r, scale, push }: DayContext): void {
  if (dom === 1)
    push({
      acc: 'checking',
      day,
      cents: -scale(97_000),
      description: 'SL Monthly pass',
      code: 'expenses:transport.publictransport',
      type: 'CREDIT_CARD',
      merchant: 'SL',
      mcc: '4111',
    });
  if (dom === 3)
    push({
      acc: 'checking',
      day,
      cents: -scale(12_900),
      description: 'NETFLIX.COM',
      code: 'expenses:entertainment.streaming',
      type: 'CREDIT_CARD',
      merchant: 'Netflix',
      mcc: '4899',
    });
  if (dom === 5)
    push({
      acc: 'checking',
      day,
      cents: -scale(11_900),
      description: 'Spotify',
      code: 'expenses:entertainment.streaming',
      type: 'CREDIT_CARD',
      merchant: 'Spotify',
      mcc: '5815',
    });
  if (dom === 10)
    push({
      acc: 'checking',
      day,
      cents: -scale(39_900),
      description: 'Telia Mobile & Broadband',
      code: 'expenses:home.communications',
      type: 'PAYMENT',
      merchant: 'Telia',
      mcc: '4814',
    });
  if (dom === 15)
    push({
      acc: 'checking',
      day,
      cents: -scale(r(52_000, 121_000)),
      description: 'Vattenfall electricity',
      code: 'expenses:home.utilities',
      type: 'PAYMENT',
      merchant: 'Vattenfall',
      mcc: '4900',
    });
  if (dom === 18)
    push({
      acc: 'checking',
      day,
      cents: -scale(44_900),
      description: 'SATS Gym',
      code: 'expenses:entertainment.sport',
      type: 'CREDIT_CARD',
      merchant: 'SATS',
      mcc: '7997',
    });
}

/** The month's last day: savings interest and the account fee. */
function monthEnd({ day, dom, r, lastDom, scale, push }: DayContext): void {
  if (dom === lastDom) {
    push({
      acc: 'savings',
      day,
      cents: scale(r(1_200, 2_400)),
      description: 'Interest',
      code: 'income:financial.interest',
      type: 'DEFAULT',
    });
    push({
      acc: 'checking',
      day,
      cents: -scale(2_500),
      description: 'Account fee',
      code: 'expenses:misc.fees',
      type: 'DEFAULT',
    });
  }
}

/** Card purchases: groceries, coffee on weekdays, restaurants on Fridays and Saturdays. */
function foodPurchases({ day, dow, rng, r, weekend, scale, push }: DayContext): void {
  const groceries = ['ICA Supermarket', 'Coop', 'Willys', 'Lidl', 'Hemköp'];
  if (rng() < (weekend ? 0.7 : 0.35)) {
    const m = groceries[r(0, groceries.length - 1)]!;
    push({
      acc: 'checking',
      day,
      cents: -scale(r(8_900, 112_000)),
      description: m.toUpperCase(),
      code: 'expenses:food.groceries',
      type: 'CREDIT_CARD',
      merchant: m,
      mcc: '5411',
    });
  }
  if (!weekend && rng() < 0.5) {
    const m = ['Espresso House', "Wayne's Coffee", 'Pressbyrån'][r(0, 2)]!;
    push({
      acc: 'checking',
      day,
      cents: -scale(r(3_500, 6_900)),
      description: m,
      code: 'expenses:food.coffee',
      type: 'CREDIT_CARD',
      merchant: m,
      mcc: '5814',
    });
  }
  if ((dow === 5 || dow === 6) && rng() < 0.6) {
    const m = ['Pizzeria Napoli', 'Sushi Yama', 'Restaurang Tranan', 'Max Burgers'][r(0, 3)]!;
    push({
      acc: 'checking',
      day,
      cents: -scale(r(14_500, 78_000)),
      description: m,
      code: 'expenses:food.restaurants',
      type: 'CREDIT_CARD',
      merchant: m,
      mcc: '5812',
    });
  }
}

/** Card purchases now and then: fuel, clothes, pharmacy, cinema, cash, Swish. */
function otherPurchases({ day, rng, r, weekend, scale, push }: DayContext): void {
  if (rng() < 0.07)
    push({
      acc: 'checking',
      day,
      cents: -scale(r(45_000, 92_000)),
      description: 'Circle K',
      code: 'expenses:transport.fuel',
      type: 'CREDIT_CARD',
      merchant: 'Circle K',
      mcc: '5541',
    });
  if (rng() < 0.06) {
    const m = ['H&M', 'Lindex', 'Zalando'][r(0, 2)]!;
    push({
      acc: 'checking',
      day,
      cents: -scale(r(29_900, 149_900)),
      description: m,
      code: 'expenses:shopping.clothes',
      type: 'CREDIT_CARD',
      merchant: m,
      mcc: '5651',
    });
  }
  if (rng() < 0.04)
    push({
      acc: 'checking',
      day,
      cents: -scale(r(8_900, 45_000)),
      description: 'Apotek Hjärtat',
      code: 'expenses:health.pharmacy',
      type: 'CREDIT_CARD',
      merchant: 'Apotek Hjärtat',
      mcc: '5912',
    });
  if (weekend && rng() < 0.08)
    push({
      acc: 'checking',
      day,
      cents: -scale(r(13_000, 36_000)),
      description: 'SF Bio',
      code: 'expenses:entertainment.culture',
      type: 'CREDIT_CARD',
      merchant: 'Filmstaden',
      mcc: '7832',
    });
  if (rng() < 0.03)
    push({
      acc: 'checking',
      day,
      cents: -scale(50_000),
      description: 'ATM withdrawal',
      code: 'expenses:misc.withdrawals',
      type: 'WITHDRAWAL',
    });
  if (rng() < 0.02)
    push({
      acc: 'checking',
      day,
      cents: -scale(r(4_900, 29_900)),
      description: 'Swish payment',
      code: 'expenses:misc.uncategorized',
      type: 'PAYMENT',
    });
}

/** The one-off events: a trip, a large expense, a double charge, a refund. */
function oneOffs({ day, dom, ym, scale, push, largeDay, doubleDay, refundDay, travelMonth }: DayContext): void {
  if (ym === travelMonth && dom === 12) {
    push({
      acc: 'checking',
      day,
      cents: -scale(243_800),
      description: 'SAS Flight',
      code: 'expenses:travel.flights',
      type: 'CREDIT_CARD',
      merchant: 'SAS',
      mcc: '4511',
    });
    push({
      acc: 'checking',
      day,
      cents: -scale(189_000),
      description: 'Hotel Barcelona Centro',
      code: 'expenses:travel.hotels',
      type: 'CREDIT_CARD',
      merchant: 'Booking.com',
      mcc: '7011',
    });
  }
  if (day === largeDay) {
    push({
      acc: 'checking',
      day,
      cents: -scale(1_899_500),
      description: 'ELGIGANTEN TV 75"',
      code: 'expenses:shopping.electronics',
      type: 'CREDIT_CARD',
      merchant: 'Elgiganten',
      mcc: '5732',
      reference: 'large-expense',
    });
  }
  if (day === doubleDay) {
    const dbl = (n: number): Draft => ({
      acc: 'checking',
      day,
      cents: -scale(43_700),
      description: 'PIZZERIA NAPOLI',
      code: 'expenses:food.restaurants',
      type: 'CREDIT_CARD',
      merchant: 'Pizzeria Napoli',
      mcc: '5812',
      n,
    });
    push(dbl(900));
    push(dbl(901));
  }
  if (day === refundDay)
    push({
      acc: 'checking',
      day,
      cents: scale(59_900),
      description: 'Refund Zalando',
      code: 'income:refund.other',
      type: 'DEFAULT',
      merchant: 'Zalando',
      mcc: '5651',
    });
}

/** What happens on a day, in this order (the order fixes each day's ids and PRNG draws). */
const DAY_RULES: Array<(t: DayContext) => void> = [
  salary,
  savingTransfers,
  loanPayments,
  housingFee,
  bills,
  monthEnd,
  foodPurchases,
  otherPurchases,
  oneOffs,
];

/** Every transaction of the history as a draft, day by day from start to today. */
function draftsFor(
  o: DemoDataOptions,
  range: { start: number; today: number },
  oneOff: Pick<DayContext, 'largeDay' | 'doubleDay' | 'refundDay' | 'travelMonth'>,
): Draft[] {
  const drafts: Draft[] = [];
  const scale = scaler(o.currencyCode);
  const push = (x: Draft) => drafts.push(x);
  for (let day = range.start; day <= range.today; day += DAY) {
    const d = new Date(day);
    const dom = d.getUTCDate();
    const dow = d.getUTCDay();
    const ym = isoDay(day).slice(0, 7);
    const rng = prng(hex(o.seed, 'day', isoDay(day)));
    const r = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
    const weekend = dow === 0 || dow === 6;
    const lastDom = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
    const t: DayContext = { day, d, dom, dow, ym, lastDom, weekend, rng, r, scale, push, ...oneOff };
    for (const rule of DAY_RULES) rule(t);
  }
  return drafts;
}

/** Drafts as records. Ids: (seed, account, day, index within the day for that account), stable across runs. */
function recordsOf(
  o: DemoDataOptions,
  drafts: Draft[],
  ids: Record<string, string>,
  today: number,
  highlights: DemoHighlights,
): TransactionRecord[] {
  const now = o.now;
  const perDay = new Map<string, number>();
  const records: TransactionRecord[] = drafts.map((d) => {
    const k = `${d.acc}:${d.day}`;
    const i = d.n ?? perDay.get(k) ?? 0;
    if (d.n === undefined) perDay.set(k, i + 1);
    const id = hex(o.seed, 'tx', d.acc, isoDay(d.day), i);
    const pending = d.day >= today - DAY && d.type === 'CREDIT_CARD';
    return {
      id,
      userId: o.userId,
      accountId: ids[d.acc]!,
      amount: centsToDecimal(d.cents),
      currencyCode: o.currencyCode,
      bookedDate: isoDay(d.day),
      valueDate: isoDay(d.day),
      description: d.description,
      originalDescription: d.description.toUpperCase(),
      categoryId: categoryId(d.code),
      status: pending ? 'PENDING' : 'BOOKED',
      type: d.type,
      providerTransactionId: `${o.providerName}-${id.slice(0, 12)}`,
      ...(d.merchant ? { merchantName: d.merchant } : {}),
      ...(d.mcc ? { merchantCategoryCode: d.mcc } : {}),
      ...(d.reference && d.reference !== 'large-expense' ? { reference: d.reference } : {}),
      seq: 0,
      created: now,
      updated: now,
    } satisfies TransactionRecord;
  });
  for (const [idx, d] of drafts.entries()) {
    if (d.reference === 'large-expense') highlights.largeExpenseId = records[idx]!.id;
    if (d.n === 900) highlights.doubleChargeIds = [records[idx]!.id, records[idx + 1]!.id];
  }
  return records;
}

/** Opening balances: the checking account's lowest point is made a low-balance moment (a few hundred). */
function openingBalances(
  drafts: Draft[],
  start: number,
  scale: (cents: number) => number,
  highlights: DemoHighlights,
): { opening: Record<string, number>; sums: Map<string, number> } {
  const sums = new Map<string, number>();
  for (const d of drafts) sums.set(d.acc, (sums.get(d.acc) ?? 0) + d.cents);
  const checking = drafts.filter((d) => d.acc === 'checking');
  let running = 0;
  let min = 0;
  let minDay = start;
  const byDay = new Map<number, number>();
  for (const d of checking) byDay.set(d.day, (byDay.get(d.day) ?? 0) + d.cents);
  for (const [day, c] of [...byDay].sort((a, b) => a[0] - b[0])) {
    running += c;
    if (running < min) {
      min = running;
      minDay = day;
    }
  }
  const lowCents = scale(18_235);
  const opening: Record<string, number> = { checking: lowCents - min };
  for (const p of PLANS) if (p.key !== 'checking') opening[p.key] = scale(p.baseCents);
  highlights.lowBalance = { date: isoDay(minDay), balance: centsToDecimal(lowCents) };
  return { opening, sums };
}

/** The accounts: numbers and IBANs from the seed, balances the opening plus the history. */
function accountsOf(
  o: DemoDataOptions,
  ids: Record<string, string>,
  balances: { opening: Record<string, number>; sums: Map<string, number> },
  who: { holder: string; clearing: string; market: string },
): AccountRecord[] {
  const { opening, sums } = balances;
  const { holder, clearing, market } = who;
  const now = o.now;
  const rngAcc = prng(hex(o.seed, 'numbers'));
  const allAccounts: AccountRecord[] = PLANS.map((p) => {
    const number = `${clearing}-${digits(rngAcc, 9)}`;
    const bban = market === 'SE' ? `${clearing.slice(0, 3)}${digits(rngAcc, 17)}` : digits(rngAcc, 18);
    const rec: AccountRecord = {
      id: ids[p.key]!,
      userId: o.userId,
      credentialsIds: [...o.credentialsIds],
      name: p.name,
      accountNumber: number,
      type: p.type,
      balance: centsToDecimal((opening[p.key] ?? 0) + (sums.get(p.key) ?? 0)),
      currencyCode: o.currencyCode,
      closed: false,
      accountExclusion: 'NONE',
      excluded: false,
      favored: p.favored,
      flags: [],
      holderName: holder,
      iban: iban(market, bban),
      ...(p.portfolioType ? { portfolioType: p.portfolioType } : {}),
      created: now,
      updated: now,
    };
    if (p.type === 'MORTGAGE' || p.type === 'LOAN')
      rec.payload = { interestRate: p.type === 'MORTGAGE' ? '3.89' : '6.45' };
    return rec;
  });
  return allAccounts;
}

/** Merges the run into the store: known accounts and transactions kept (PENDING may become BOOKED). */
function write(
  store: MemoryStore,
  o: DemoDataOptions,
  accounts: AccountRecord[],
  txs: TransactionRecord[],
): Omit<DemoResult, 'highlights'> {
  const now = o.now;
  const outAccounts: AccountRecord[] = [];
  const preexisting = new Set<string>();
  for (const a of accounts) {
    const existing = store.accounts.get(a.id);
    if (existing) {
      preexisting.add(a.id);
      for (const c of o.credentialsIds) if (!existing.credentialsIds.includes(c)) existing.credentialsIds.push(c);
      existing.updated = now;
      outAccounts.push(existing);
    } else {
      store.accounts.set(a.id, a);
      outAccounts.push(a);
    }
  }
  const created: TransactionRecord[] = [];
  const all: TransactionRecord[] = [];
  for (const t of txs) {
    const existing = store.transactions.get(t.id);
    if (existing) {
      if (existing.status === 'PENDING' && t.status === 'BOOKED') {
        existing.status = 'BOOKED';
        existing.updated = now;
      }
      all.push(existing);
      continue;
    }
    t.seq = store.nextSeq();
    store.transactions.set(t.id, t);
    created.push(t);
    all.push(t);
  }
  // a known account's balance moves by exactly what this run added
  for (const a of outAccounts) {
    if (!preexisting.has(a.id)) continue;
    const added = created.filter((t) => t.accountId === a.id).map((t) => t.amount);
    if (added.length > 0) a.balance = addDecimals([a.balance, ...added]);
  }
  return { accounts: outAccounts, transactions: all, created };
}

function generate(o: DemoDataOptions, store: MemoryStore | undefined): DemoResult {
  const months = Math.max(1, Math.min(o.months ?? 6, 60));
  const scale = scaler(o.currencyCode);
  const market = o.market ?? CURRENCY_MARKET[o.currencyCode] ?? 'SE';
  const base = prng(hex(o.seed, 'accounts'));
  const holder = HOLDERS[Math.floor(base() * HOLDERS.length)]!;
  const clearing = String(3000 + Math.floor(base() * 6000));
  const today = Math.floor(o.now / DAY) * DAY;
  const startDate = new Date(today);
  startDate.setUTCMonth(startDate.getUTCMonth() - months);
  const start = startDate.getTime();

  // Accounts (ids from the seed: the same person at the same institution has the same accounts).
  const ids: Record<string, string> = {};
  for (const p of PLANS) ids[p.key] = hex(o.seed, 'account', p.key);
  // The one-off events sit relative to the first generation (the checking account's creation), so
  // a later refresh does not move them and create them again.
  const known = store?.accounts.get(ids.checking!);
  const anchor = known ? Math.floor(known.created / DAY) * DAY : today;
  const oneOff = {
    largeDay: anchor - 47 * DAY,
    doubleDay: anchor - 19 * DAY,
    refundDay: anchor - 60 * DAY,
    travelMonth: isoDay(anchor - 75 * DAY).slice(0, 7),
  };
  const drafts = draftsFor(o, { start, today }, oneOff);
  const highlights: DemoHighlights = {};
  const records = recordsOf(o, drafts, ids, today, highlights);
  const balances = openingBalances(drafts, start, scale, highlights);
  const allAccounts = accountsOf(o, ids, balances, { holder, clearing, market });
  const accounts = o.accountFilter ? allAccounts.filter(o.accountFilter) : allAccounts;
  const keep = new Set(accounts.map((a) => a.id));
  const txs = records.filter((t) => keep.has(t.accountId));
  if (!store) return { accounts, transactions: txs, created: [], highlights };
  return { ...write(store, o, accounts, txs), highlights };
}
