// Data v2 reads beyond the account list and transactions (the vendor reference's api-data-v2 page):
// one account, its balances (Beta) and parties, identities (Beta), investment accounts with their
// holdings, loan accounts, and transaction reports (made when a hosted flow started with a Link
// session ends, read with a client token for an hour). Shapes as the reference's examples; amounts
// exact: `{scale, unscaledValue}` strings where the reference writes strings (accounts), integers
// where it writes integers (balances, investments, loans), never through a double.
import { EP } from '../../contract/index.js';
import { abs, add, dec, mulRatio, sub, toStr, ZERO, type Dec } from '../../contract/decimal.js';
import { ExactNumber } from '../../contract/exact-json.js';
import type { SandboxContext } from '../context.js';
import type { AccountRecord, MemoryStore, UserRecord } from '../store.js';
import { badRequest, envelope } from '../http.js';
import { credentialsOf } from './credentials-view.js';
import { providerByName } from '../providers/catalogue.js';
import { personalNumber } from './identities.js';
import { portfolio } from './investments.js';
import { ratePercent } from './loans.js';
import { ownAccount, pageSizeParam, sendJson, userAccountList, v2Account, v2Transaction } from './read-views.js';
import type { Req as Request } from '../router.js';

const notFound = (what: string, id: string) =>
  envelope(404, `${what}.not_found`, `${what.replace(/_/g, ' ')} "${id.slice(0, 80)}" not found`);

/** Minor-unit exponents that are not 2 (ISO 4217). */
const MINOR_DIGITS: Record<string, number> = { JPY: 0, ISK: 0, KRW: 0, CLP: 0, BHD: 3, KWD: 3, JOD: 3, OMR: 3, TND: 3 };

/** An exact value with integer scale and unscaledValue (the reference's ExactValue in balances, investments, loans). */
export function intValue(d: Dec): { scale: ExactNumber; unscaledValue: ExactNumber } {
  return { scale: new ExactNumber(String(d.s)), unscaledValue: new ExactNumber(d.u.toString()) };
}

export function intAmount(d: Dec, currencyCode: string): Record<string, unknown> {
  return { currencyCode, value: intValue(d) };
}

/** An amount with valueInMinorUnit (balances): the minor units, rounded half-even when finer. */
function minorAmount(d: Dec, currencyCode: string): Record<string, unknown> {
  const digits = MINOR_DIGITS[currencyCode] ?? 2;
  const minor = mulRatio(d, 1n, 1n, digits);
  return { amount: { ...intAmount(d, currencyCode), valueInMinorUnit: new ExactNumber(minor.u.toString()) } };
}

const institutionOf = (store: MemoryStore, a: AccountRecord) => {
  const c = a.credentialsIds[0] ? credentialsOf(store, a.credentialsIds[0]) : undefined;
  return { provider: c?.providerName, id: c ? providerByName(c.providerName)?.financialInstitutionId : undefined };
};

const visible = (a: AccountRecord) => a.accountExclusion !== 'AGGREGATION';

/** The holder as a party: name and a stable personal number YYYYMMDD-NNNN. */
function parties(user: UserRecord | undefined, a: AccountRecord): Array<Record<string, unknown>> {
  if (!a.holderName || !visible(a)) return [];
  const { ssn } = personalNumber(user?.id ?? a.userId, a.holderName);
  return [{ identity: { name: a.holderName, ssn: `${ssn.slice(0, 8)}-${ssn.slice(8)}` }, role: 'HOLDER' }];
}

/** The caller's account; a client token reaches the accounts of its own app's users. */
function accountFor(store: MemoryStore, req: Request, id: string): AccountRecord | undefined {
  if (req.auth?.kind === 'client') {
    const a = store.accounts.get(id);
    const owner = a ? store.users.get(a.userId) : undefined;
    return a && owner && owner.clientId === req.auth.clientId ? a : undefined;
  }
  return ownAccount(store, req.user(), id);
}

function balances(a: AccountRecord): Record<string, unknown> {
  const booked = dec(a.balance);
  const excluding = a.reservedAmount !== undefined ? sub(booked, dec(a.reservedAmount)) : booked;
  const credit = a.availableCredit !== undefined ? dec(a.availableCredit) : undefined;
  const out: Record<string, unknown> = {
    accountId: a.id,
    balances: {
      availableBalanceExcludingCredit: minorAmount(excluding, a.currencyCode),
      availableBalanceIncludingCredit: minorAmount(credit ? add(excluding, credit) : excluding, a.currencyCode),
      bookedBalance: minorAmount(booked, a.currencyCode),
    },
    refreshed: new Date(a.updated).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
  if (credit) out.creditLimit = minorAmount(credit, a.currencyCode);
  return out;
}

const isInvestment = (a: AccountRecord) => (a.type === 'INVESTMENT' || a.type === 'PENSION') && visible(a);
const isLoan = (a: AccountRecord) => (a.type === 'MORTGAGE' || a.type === 'LOAN') && visible(a);
/** The reference's "ISO 8601 date and time format in UTC (YYYY-MM-DDThh:mm:ssZ)": whole seconds. */
const refreshedIso = (a: AccountRecord) => new Date(a.updated).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Swedish products by the account's v1 portfolio type (an Aktie- och fondkonto is a depot). */
const SE_PRODUCTS: Readonly<Record<string, string>> = Object.freeze({ ISK: 'SE_ISK', KF: 'SE_KF', DEPOT: 'SE_AF' });

/**
 * The reference's financialProduct, "uniformly defined ... within the same market": SE_ISK, SE_KF,
 * SE_AF, SE_PENSION, ES_INVESTMENT, ES_PENSION. It sent the v1 portfolio type (ISK, DEPOT, PENSION),
 * none of which is a documented value. A market the reference names no products for follows the
 * ES pattern: MARKET_PENSION or MARKET_INVESTMENT.
 */
export function financialProduct(market: string | undefined, a: AccountRecord): string {
  const pension = a.type === 'PENSION' || a.portfolioType === 'PENSION';
  const m = market ?? 'SE';
  if (m === 'SE') return pension ? 'SE_PENSION' : (SE_PRODUCTS[a.portfolioType ?? 'DEPOT'] ?? 'SE_AF');
  return `${m}_${pension ? 'PENSION' : 'INVESTMENT'}`;
}

function investmentAccount(store: MemoryStore, a: AccountRecord): Record<string, unknown> {
  const p = portfolio(a) as { cashValue: ExactNumber; instruments: Array<Record<string, unknown>> };
  const byType = (t: string) =>
    p.instruments.filter((i) => i.type === t).reduce((s, i) => add(s, dec(String(i.marketValue as ExactNumber))), ZERO);
  const cash = dec(String(p.cashValue));
  const cur = a.currencyCode;
  return {
    id: a.id,
    accountName: a.name,
    balances: { available: { amount: intAmount(cash, cur) }, booked: { amount: intAmount(dec(a.balance), cur) } },
    dates: { lastRefreshed: refreshedIso(a) },
    financialInstitutionId: institutionOf(store, a).id ?? null,
    financialProduct: financialProduct(store.users.get(a.userId)?.market, a),
    holdingValue: {
      equity: intAmount(byType('STOCK'), cur),
      fund: intAmount(byType('FUND'), cur),
      total: intAmount(sub(dec(a.balance), cash), cur),
    },
    identifiers: {
      accountNumber: a.accountNumber,
      ...(a.iban ? { iban: { iban: a.iban, bban: a.iban.slice(4) } } : {}),
    },
    parties: parties(store.users.get(a.userId), a),
  };
}

function holding(a: AccountRecord, i: Record<string, unknown>): Record<string, unknown> {
  const cur = a.currencyCode;
  const value = dec(String(i.marketValue as ExactNumber));
  const profit = dec(String(i.profit as ExactNumber));
  const cost = sub(value, profit);
  // the reference: "in decimal form, e.g. 6% is expressed as 0.06": profit / cost, to a hundredth
  // of a percent (it was sent as the percent, 8.7 for 8.7 %)
  const pct = cost.u === 0n ? ZERO : mulRatio(profit, 10n ** BigInt(cost.s), cost.u, 4);
  return {
    id: i.id,
    accountId: a.id,
    averageAcquisitionPrice: intAmount(dec(String(i.averageAcquisitionPrice as ExactNumber)), cur),
    financialInstrument: {
      identifiers: { isin: i.isin },
      marketIdentifierCode: i.marketPlace,
      name: i.name,
      nativeIsoCurrencyCode: cur,
      tickerSymbol: i.ticker,
      type: i.type === 'STOCK' ? 'EQUITY' : 'FUND',
    },
    holdingPercentageReturn: new ExactNumber(toStr(pct)),
    holdingReturn: intAmount(profit, cur),
    holdingValue: intAmount(value, cur),
    quantity: i.quantity,
  };
}

/**
 * One page of an investment account's holdings: `pageSize` 10 by default (the reference), and a
 * token that names its account: one account's token sent for another account's holdings was read
 * as a position in that list and answered with a page of it (200, holdings skipped).
 */
function holdingsPage(a: AccountRecord, q: URLSearchParams): Record<string, unknown> {
  const size = pageSizeParam(q, 10);
  const all = (portfolio(a) as { instruments: Array<Record<string, unknown>> }).instruments;
  const token = q.get('pageToken');
  let start = 0;
  if (token) {
    const m = /^h(\d{1,6}):([\w-]{1,100})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
    if (!m || Number(m[1]) > all.length || m[2] !== a.id)
      throw badRequest(
        `pageToken is not valid for the holdings of ${a.id}: pass the nextPageToken of the previous page of this account unchanged`,
        { field: 'pageToken' },
      );
    start = Number(m[1]);
  }
  const end = Math.min(start + size, all.length);
  return {
    holdings: all.slice(start, end).map((i) => holding(a, i)),
    nextPageToken: end < all.length ? Buffer.from(`h${end}:${a.id}`).toString('base64url') : '',
  };
}

function loanAccount(store: MemoryStore, a: AccountRecord): Record<string, unknown> {
  const cur = a.currencyCode;
  // the reference: principal and initial are "the loan with debt expressed as a negative number"
  // (as the account's own balance in /data/v2/accounts); what was paid and each installment are positive
  const owed = abs(dec(a.balance));
  const borrowed = mulRatio(owed, 5n, 4n, 2);
  const paid = sub(borrowed, owed);
  const principal = sub(ZERO, owed);
  const initial = sub(ZERO, borrowed);
  const pct = ratePercent(a);
  const created = new Date(a.created - 3 * 365 * 86_400_000).toISOString().slice(0, 10);
  const part = {
    loanPartNumber: `${a.accountNumber}-1`,
    amountPaid: intAmount(paid, cur),
    balances: { initial: intAmount(initial, cur), principal: intAmount(principal, cur) },
    dates: { originationDate: created },
    installment: { amount: intAmount(mulRatio(owed, 1n, 240n, 2), cur), period: 'MONTHLY' },
    interestRate: { value: new ExactNumber(toStr({ u: pct.u, s: pct.s + 2 })), variableRate: a.type !== 'MORTGAGE' },
  };
  return {
    id: a.id,
    accountName: a.name,
    amountPaid: intAmount(paid, cur),
    balances: { initial: intAmount(initial, cur), principal: intAmount(principal, cur) },
    dates: { lastRefreshed: refreshedIso(a) },
    financialInstitutionId: institutionOf(store, a).id ?? null,
    identifiers: { accountNumber: a.accountNumber },
    loanParts: [part],
    loanType: a.type === 'MORTGAGE' ? 'MORTGAGE' : 'PERSONAL',
    parties: parties(store.users.get(a.userId), a),
  };
}

// ---- transaction reports (made by the hosted flow of a Link session) ---------------------------

export interface TransactionReport {
  id: string;
  clientId: string;
  created: number;
  body: Record<string, unknown>;
}

/** Reports are readable for an hour after they are made (the reference's "up to 1h"). */
export const REPORT_TTL_MS = 60 * 60 * 1000;

const reportsOf = (store: MemoryStore) => store.area('transactionReports', () => new Map<string, TransactionReport>());

/** A report of a user's accounts and transactions now, for the app that ran the flow. */
export function makeTransactionReport(
  store: MemoryStore,
  o: { userId: string; clientId: string; externalReference?: string; merchantId?: string },
): string {
  const now = store.clock.now();
  for (const [id, r] of reportsOf(store)) if (r.created + REPORT_TTL_MS <= now) reportsOf(store).delete(id);
  const id = store.ids.next();
  const user = store.users.get(o.userId);
  const accounts = userAccountList(store, o.userId);
  const transactions = [...store.transactions.ofUser(o.userId)]
    .sort((x, y) => (x.bookedDate < y.bookedDate ? 1 : x.bookedDate > y.bookedDate ? -1 : x.id < y.id ? -1 : 1))
    .map((t) => v2Transaction(t, user?.locale ?? 'en_US'));
  // the reference: externalReference and merchantId are "only returned when ... provided by the
  // client" (they were "" when not); createdAt as its example writes it, in whole seconds
  const body = {
    id,
    createdAt: new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    ...(o.externalReference === undefined ? {} : { externalReference: o.externalReference }),
    ...(o.merchantId === undefined ? {} : { merchantId: o.merchantId }),
    accounts: accounts.map((a) => v2Account(a, institutionOf(store, a).id)),
    transactions,
  };
  reportsOf(store).set(id, { id, clientId: o.clientId, created: now, body });
  return id;
}

export function registerDataV2(ctx: SandboxContext): void {
  const { store, handle } = ctx;

  handle(EP.dataV2.account, (req, res) => {
    const a = ownAccount(store, req.user(), req.params.id!);
    if (!a) throw notFound('account', req.params.id!);
    sendJson(res, 200, v2Account(a, institutionOf(store, a).id));
  });

  handle(EP.dataV2.accountBalances, (req, res) => {
    const a = accountFor(store, req, req.params.id!);
    if (!a) throw notFound('account', req.params.id!);
    if (!visible(a))
      throw badRequest(`account "${a.id}" has no balances: it is excluded from aggregation`, { field: 'id' });
    sendJson(res, 200, balances(a));
  });

  handle(EP.dataV2.accountParties, (req, res) => {
    const user = req.user();
    const a = ownAccount(store, user, req.params.id!);
    if (!a) throw notFound('account', req.params.id!);
    sendJson(res, 200, { parties: parties(user, a) });
  });

  handle(EP.dataV2.identities, (req, res) => {
    const user = req.user();
    const seen = new Set<string>();
    const identities: Array<Record<string, unknown>> = [];
    for (const a of userAccountList(store, user.id)) {
      const c = a.credentialsIds[0];
      if (!c || !a.holderName || !visible(a) || seen.has(c)) continue;
      seen.add(c);
      const { ssn, dateOfBirth } = personalNumber(user.id, a.holderName);
      const inst = institutionOf(store, a);
      identities.push({
        dateOfBirth,
        financialInstitutionId: inst.id ?? null,
        name: a.holderName,
        providerName: inst.provider ?? 'unknown',
        ssn: `${ssn.slice(0, 8)}-${ssn.slice(8)}`,
      });
    }
    sendJson(res, 200, { identities });
  });

  handle(EP.dataV2.investmentAccounts, (req, res) => {
    const user = req.user();
    const investmentAccounts = userAccountList(store, user.id)
      .filter(isInvestment)
      .map((a) => investmentAccount(store, a));
    sendJson(res, 200, { investmentAccounts });
  });

  const ownInvestment = (req: Request) => {
    const a = ownAccount(store, req.user(), req.params.id!);
    if (!a || !isInvestment(a)) throw notFound('investment_account', req.params.id!);
    return a;
  };
  handle(EP.dataV2.investmentAccount, (req, res) => sendJson(res, 200, investmentAccount(store, ownInvestment(req))));

  handle(EP.dataV2.holdings, (req, res) => sendJson(res, 200, holdingsPage(ownInvestment(req), req.query)));

  handle(EP.dataV2.loanAccounts, (req, res) => {
    const user = req.user();
    sendJson(res, 200, {
      loanAccounts: userAccountList(store, user.id)
        .filter(isLoan)
        .map((a) => loanAccount(store, a)),
    });
  });

  handle(EP.dataV2.loanAccount, (req, res) => {
    const a = ownAccount(store, req.user(), req.params.id!);
    if (!a || !isLoan(a)) throw notFound('loan_account', req.params.id!);
    sendJson(res, 200, loanAccount(store, a));
  });

  handle(EP.dataV2.transactionReport, (req, res) => {
    const r = reportsOf(store).get(req.params.id!);
    if (!r || r.clientId !== req.auth?.clientId || r.created + REPORT_TTL_MS <= store.clock.now())
      throw notFound('transaction_report', req.params.id!);
    sendJson(res, 200, r.body);
  });
}
