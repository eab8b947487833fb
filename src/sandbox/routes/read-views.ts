// Shared by the read areas (accounts, transactions, balances, investments, loans): the wire views
// of the store's records, with amounts written exactly. The store keeps amounts as decimal strings;
// v2 shows them as {scale, unscaledValue} strings, and v1 shows JSON numbers whose literal text is
// written from the decimal string (never through a double).
import { decimalText, exactParts } from '../../contract/decimal.js';
import { ExactNumber, writeJson } from '../../contract/exact-json.js';
import type { AccountRecord, MemoryStore, TransactionRecord, UserRecord } from '../store.js';
import { categoryById, categoryName } from '../categories.js';
import { badRequest } from '../http.js';

export function v2Amount(
  text: string,
  currencyCode: string,
): { currencyCode: string; value: { scale: string; unscaledValue: string } } {
  const p = exactParts(text);
  return { currencyCode, value: { scale: p.scale, unscaledValue: p.unscaledValue } };
}

/** A JSON number written from its exact decimal text (writeJson writes its literal). */
export const num = (decimal: string | undefined | null): ExactNumber | null =>
  decimal === undefined || decimal === null ? null : new ExactNumber(decimalText(decimal));

/** Sends a body built with num(). */
export function sendJson(
  res: { send(status: number, body: Buffer, contentType: string): void },
  status: number,
  body: unknown,
): void {
  res.send(status, Buffer.from(writeJson(body)), 'application/json');
}

// ---- accounts -------------------------------------------------------------------------------

export function userAccountList(store: MemoryStore, userId: string): AccountRecord[] {
  const out: AccountRecord[] = [];
  for (const a of store.accounts.values()) if (a.userId === userId) out.push(a);
  out.sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1));
  return out;
}

/** An account of the caller, or undefined (another user's account is as missing as no account). */
export function ownAccount(store: MemoryStore, user: UserRecord, id: string): AccountRecord | undefined {
  const a = store.accounts.get(id);
  return a && a.userId === user.id ? a : undefined;
}

/** AGGREGATION keeps nothing but the name and the number (spec 2.3). */
export const aggregationExcluded = (a: AccountRecord) => a.accountExclusion === 'AGGREGATION';

/** Account (v1) as the Swagger's Account shows it. */
export function v1Account(a: AccountRecord, financialInstitutionId?: string): Record<string, unknown> {
  const bare = aggregationExcluded(a);
  const p = exactParts(a.balance);
  const out: Record<string, unknown> = {
    id: a.id,
    credentialsId: a.credentialsIds[0] ?? null,
    name: a.name,
    accountNumber: a.accountNumber,
    type: a.type,
    balance: bare ? null : num(a.balance),
    currencyDenominatedBalance: bare
      ? null
      : {
          unscaledValue: new ExactNumber(p.unscaledValue),
          scale: new ExactNumber(p.scale),
          currencyCode: a.currencyCode,
        },
    closed: a.closed,
    accountExclusion: a.accountExclusion,
    excluded: a.excluded,
    favored: a.favored,
    ownership: bare ? null : new ExactNumber('1'),
    // the reference types v1 flags as a string holding a JSON array ("[\"MANDATE\"]")
    flags: JSON.stringify(a.flags),
    holderName: bare ? null : (a.holderName ?? null),
    identifiers: bare ? null : JSON.stringify(identifierUris(a)),
    financialInstitutionId: financialInstitutionId ?? null,
    refreshed: bare ? null : a.updated,
  };
  return out;
}

function identifierUris(a: AccountRecord): string[] {
  const out: string[] = [];
  const digits = a.accountNumber.replace(/\D/g, '');
  if (digits) out.push(`se://${digits}`);
  if (a.iban) out.push(`iban://${a.iban}`);
  return out;
}

/** Account (v2): exact balances, identifiers, paging-friendly. */
export function v2Account(a: AccountRecord, financialInstitutionId?: string): Record<string, unknown> {
  const bare = aggregationExcluded(a);
  const out: Record<string, unknown> = {
    id: a.id,
    name: a.name,
    type: v2TypeOf(a.type),
    customerSegment: a.flags.includes('BUSINESS') ? 'BUSINESS' : 'PERSONAL',
    financialInstitutionId: financialInstitutionId ?? null,
    identifiers: {
      financialInstitution: { accountNumber: a.accountNumber },
      ...(a.iban && !bare ? { iban: { iban: a.iban, bban: a.iban.slice(4) } } : {}),
    },
    dates: { lastRefreshed: new Date(a.updated).toISOString() },
  };
  // the reference: "only populated for Connector customer accounts", the ingesting party's id
  if (a.externalId !== undefined) out.externalAccountId = a.externalId;
  if (!bare) out.balances = balancesOf(a);
  return out;
}

/** The reference's v2 account types (data v2 Account.type); every other v1 type is UNDEFINED there. */
export const V2_ACCOUNT_TYPES = ['UNDEFINED', 'CHECKING', 'SAVINGS', 'CREDIT_CARD'] as const;

export function v2TypeOf(v1Type: string): (typeof V2_ACCOUNT_TYPES)[number] {
  return v1Type === 'CHECKING' || v1Type === 'SAVINGS' || v1Type === 'CREDIT_CARD' ? v1Type : 'UNDEFINED';
}

/** v1 balances as the reference shows them: flat {currencyCode, scale, unscaledValue}, JSON integers. */
export function v1BalancesOf(a: AccountRecord): Record<string, unknown> {
  const flat = (decimal: string) => {
    const p = exactParts(decimal);
    return {
      currencyCode: a.currencyCode,
      scale: new ExactNumber(p.scale),
      unscaledValue: new ExactNumber(p.unscaledValue),
    };
  };
  const out: Record<string, unknown> = {};
  let available = exactParts(a.balance);
  if (a.reservedAmount !== undefined) available = subtract(available, exactParts(a.reservedAmount));
  out.available = {
    currencyCode: a.currencyCode,
    scale: new ExactNumber(available.scale),
    unscaledValue: new ExactNumber(available.unscaledValue),
  };
  out.booked = flat(a.balance);
  if (a.availableCredit !== undefined) out.creditLimit = flat(a.availableCredit);
  return out;
}

/** booked, available (booked less reserved) and the credit limit when known, exact. */
export function balancesOf(a: AccountRecord): Record<string, unknown> {
  const b: Record<string, unknown> = { booked: { amount: v2Amount(a.balance, a.currencyCode) } };
  let available = exactParts(a.balance);
  if (a.reservedAmount !== undefined) available = subtract(available, exactParts(a.reservedAmount));
  b.available = { amount: { currencyCode: a.currencyCode, value: available } };
  if (a.availableCredit !== undefined) b.creditLimit = { amount: v2Amount(a.availableCredit, a.currencyCode) };
  return b;
}

function subtract(
  x: { unscaledValue: string; scale: string },
  y: { unscaledValue: string; scale: string },
): { unscaledValue: string; scale: string } {
  const s = Math.max(Number(x.scale), Number(y.scale));
  const u =
    BigInt(x.unscaledValue) * 10n ** BigInt(s - Number(x.scale)) -
    BigInt(y.unscaledValue) * 10n ** BigInt(s - Number(y.scale));
  return { unscaledValue: u.toString(), scale: String(s) };
}

// ---- transactions ---------------------------------------------------------------------------

/**
 * A transaction as GET /data/v2/transactions shows it: every field of spec 2.4 and the reference's
 * additions. Every record field read here (and in counterparty()) must be in ViewInputs below:
 * V2TransactionViews reuses a view only while those fields are unchanged.
 */
export function v2Transaction(t: TransactionRecord, locale: string): Record<string, unknown> {
  const cat = t.categoryId ? categoryById(t.categoryId) : undefined;
  const value = t.valueDate || t.bookedDate;
  const original = t.originalDescription || t.description;
  const out: Record<string, unknown> = {
    id: t.id,
    accountId: t.accountId,
    amount: v2Amount(t.amount, t.currencyCode),
    categories: { pfm: { id: t.categoryId ?? '', name: cat ? categoryName(cat, locale) : '' } },
    dates: { booked: t.bookedDate, transaction: t.bookedDate, value },
    descriptions: {
      detailed: { unstructured: original },
      display: t.description,
      original,
    },
    identifiers: { providerTransactionId: t.providerTransactionId ?? t.externalId ?? t.id },
    merchantInformation: { merchantCategoryCode: t.merchantCategoryCode ?? '', merchantName: t.merchantName ?? '' },
    providerMutability: t.status === 'PENDING' ? 'MUTABLE' : 'MUTABILITY_UNDEFINED',
    reference: t.reference ?? '',
    status: t.status,
    types: { financialInstitutionTypeCode: t.type, type: V2_TRANSACTION_TYPES.has(t.type) ? t.type : 'DEFAULT' },
    // the reference's date-times (data v2, Beta): midnight UTC of the dates the sandbox keeps
    bookedDateTime: midnightUtc(t.bookedDate),
    transactionDateTime: midnightUtc(t.bookedDate),
    valueDateTime: midnightUtc(value),
  };
  const party = t.counterparties ?? counterparty(t);
  if (party) out.counterparties = party;
  if (t.payload !== undefined) out.partnerPayload = t.payload;
  if (t.notes !== undefined) out.notes = t.notes;
  return out;
}

/** A character JSON.stringify writes escaped: a quote, a backslash, a control, a lone surrogate half. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string's text between JSON quotes: itself unless a character needs escaping (escaping is per character). */
const inner = (s: string): string => (ESCAPED.test(s) ? JSON.stringify(s).slice(1, -1) : s);

/** An optional string field that is one, or absent. */
const opt = (v: unknown): boolean => v === undefined || typeof v === 'string';

/** Whether the record's fields are the strings the store's types promise (else the object path). */
function plainRecord(t: TransactionRecord): boolean {
  return (
    typeof t.id === 'string' &&
    typeof t.accountId === 'string' &&
    typeof t.amount === 'string' &&
    typeof t.currencyCode === 'string' &&
    typeof t.bookedDate === 'string' &&
    typeof t.description === 'string' &&
    typeof t.status === 'string' &&
    typeof t.type === 'string' &&
    opt(t.categoryId) &&
    opt(t.valueDate) &&
    opt(t.originalDescription) &&
    opt(t.providerTransactionId) &&
    opt(t.externalId) &&
    opt(t.merchantCategoryCode) &&
    opt(t.merchantName) &&
    opt(t.reference) &&
    opt(t.notes)
  );
}

/**
 * JSON.stringify(v2Transaction(t, locale)) as pieces pushed onto out, to be joined once with a whole
 * page: the view's 14 objects are never built, and no piece is a fresh string unless a field needs
 * escaping (a page's text is one join, not a rope of templates to flatten). On pages of 100 with a
 * million records held: 2.05 against 2.95 µs a transaction, most of what the sandbox spends on a page.
 * Records whose fields are not all the strings the store types promise (one read from an old --data
 * file, say) take the object path.
 */
export function v2TransactionPieces(t: TransactionRecord, locale: string, out: string[]): void {
  if (!plainRecord(t)) {
    out.push(JSON.stringify(v2Transaction(t, locale)));
    return;
  }
  const cat = t.categoryId ? categoryById(t.categoryId) : undefined;
  const booked = inner(t.bookedDate);
  const value = t.valueDate ? inner(t.valueDate) : booked;
  const original = inner(t.originalDescription || t.description);
  const p = exactParts(t.amount);
  const type = inner(t.type);
  out.push(
    '{"id":"',
    inner(t.id),
    '","accountId":"',
    inner(t.accountId),
    '","amount":{"currencyCode":"',
    inner(t.currencyCode),
    '","value":{"scale":"',
    p.scale,
    '","unscaledValue":"',
    p.unscaledValue,
    '"}},"categories":{"pfm":{"id":"',
    inner(t.categoryId ?? ''),
    '","name":"',
    cat ? inner(categoryName(cat, locale)) : '',
    '"}},"dates":{"booked":"',
    booked,
    '","transaction":"',
    booked,
    '","value":"',
    value,
    '"},"descriptions":{"detailed":{"unstructured":"',
    original,
    '"},"display":"',
    inner(t.description),
    '","original":"',
    original,
    '"},"identifiers":{"providerTransactionId":"',
    inner(t.providerTransactionId ?? t.externalId ?? t.id),
    '"},"merchantInformation":{"merchantCategoryCode":"',
    inner(t.merchantCategoryCode ?? ''),
    '","merchantName":"',
    inner(t.merchantName ?? ''),
    t.status === 'PENDING' ? '"},"providerMutability":"MUTABLE' : '"},"providerMutability":"MUTABILITY_UNDEFINED',
    '","reference":"',
    inner(t.reference ?? ''),
    '","status":"',
    inner(t.status),
    '","types":{"financialInstitutionTypeCode":"',
    type,
    '","type":"',
    V2_TRANSACTION_TYPES.has(t.type) ? type : 'DEFAULT',
    '"},"bookedDateTime":"',
    booked,
    'T00:00:00Z","transactionDateTime":"',
    booked,
    'T00:00:00Z","valueDateTime":"',
    value,
    'T00:00:00Z"',
  );
  const party = t.counterparties ?? counterparty(t);
  if (party) out.push(',"counterparties":', JSON.stringify(party));
  if (t.payload !== undefined) out.push(',"partnerPayload":', JSON.stringify(t.payload));
  if (t.notes !== undefined) out.push(',"notes":"', inner(t.notes), '"');
  out.push('}');
}

/** JSON.stringify(v2Transaction(t, locale)), written directly (v2TransactionPieces). */
export function v2TransactionText(t: TransactionRecord, locale: string): string {
  const out: string[] = [];
  v2TransactionPieces(t, locale, out);
  return out.join('');
}

/** The record's fields a v2 view is made of, as they were when the view was built. */
type ViewInputs = { locale: string } & Pick<
  TransactionRecord,
  | 'id'
  | 'accountId'
  | 'amount'
  | 'currencyCode'
  | 'categoryId'
  | 'bookedDate'
  | 'valueDate'
  | 'description'
  | 'originalDescription'
  | 'providerTransactionId'
  | 'externalId'
  | 'merchantCategoryCode'
  | 'merchantName'
  | 'status'
  | 'reference'
  | 'type'
  | 'counterparties'
  | 'payload'
  | 'notes'
>;

function viewInputs(t: TransactionRecord, locale: string): ViewInputs {
  return {
    locale,
    id: t.id,
    accountId: t.accountId,
    amount: t.amount,
    currencyCode: t.currencyCode,
    categoryId: t.categoryId,
    bookedDate: t.bookedDate,
    valueDate: t.valueDate,
    description: t.description,
    originalDescription: t.originalDescription,
    providerTransactionId: t.providerTransactionId,
    externalId: t.externalId,
    merchantCategoryCode: t.merchantCategoryCode,
    merchantName: t.merchantName,
    status: t.status,
    reference: t.reference,
    type: t.type,
    counterparties: t.counterparties,
    payload: t.payload,
    notes: t.notes,
  };
}

/** Whether the record still holds what its view was built from (nested objects are replaced, never edited). */
function sameInputs(k: ViewInputs, t: TransactionRecord, locale: string): boolean {
  return (
    k.locale === locale &&
    k.id === t.id &&
    k.accountId === t.accountId &&
    k.amount === t.amount &&
    k.currencyCode === t.currencyCode &&
    k.categoryId === t.categoryId &&
    k.bookedDate === t.bookedDate &&
    k.valueDate === t.valueDate &&
    k.description === t.description &&
    k.originalDescription === t.originalDescription &&
    k.providerTransactionId === t.providerTransactionId &&
    k.externalId === t.externalId &&
    k.merchantCategoryCode === t.merchantCategoryCode &&
    k.merchantName === t.merchantName &&
    k.status === t.status &&
    k.reference === t.reference &&
    k.type === t.type &&
    k.counterparties === t.counterparties &&
    k.payload === t.payload &&
    k.notes === t.notes
  );
}

interface KeptView {
  inputs: ViewInputs;
  /** JSON.stringify of the view. */
  json: string;
}

/** Each bounded: a walk over a million transactions keeps nothing, and pages read again are few. */
const KEPT_MAX = 20_000;

/**
 * The v2 views of one sandbox's records as JSON text, for responses that only serialise them (the
 * pages of GET /data/v2/transactions): the same text for a record as long as it holds what its
 * view was built from, so a page read again (a client polling its first page) builds and
 * serialises no views; the page is the kept texts joined.
 *
 * Why: writing a page's 100 texts (v2TransactionText) is most of what the sandbox does per page, so
 * a text is kept for a record read again. Each use compares the
 * record's fields with those the text was built from, so a record changed in place anywhere (a
 * connector update, a category change) gets a new text at once. A record read once is only noted,
 * not kept: a walk over all of a large user's transactions (connector verify) keeps nothing alive.
 * One per sandbox (routes/transactions-v2.ts), so a stopped sandbox's records go with it.
 */
export class V2TransactionViews {
  /** Records read once lately: a text is kept from the second read on. */
  private readonly readOnce = new Set<TransactionRecord>();
  private readonly kept = new Map<TransactionRecord, KeptView>();

  /** JSON.stringify({ transactions: the records' views, nextPageToken }). */
  page(records: readonly TransactionRecord[], locale: string, nextPageToken: string): string {
    const out: string[] = ['{"transactions":['];
    for (let i = 0; i < records.length; i++) {
      if (i > 0) out.push(',');
      this.part(records[i]!, locale, out);
    }
    out.push('],"nextPageToken":', JSON.stringify(nextPageToken), '}');
    return out.join('');
  }

  /** A record's kept text, else its text written anew (kept from the second read on), onto out. */
  private part(t: TransactionRecord, locale: string, out: string[]): void {
    const k = this.kept.get(t);
    if (k !== undefined) {
      if (sameInputs(k.inputs, t, locale)) {
        out.push(k.json);
        return;
      }
      // changed: written again below, in its place
    } else if (!this.readOnce.has(t)) {
      if (this.readOnce.size >= KEPT_MAX) this.readOnce.clear();
      this.readOnce.add(t);
      v2TransactionPieces(t, locale, out);
      return;
    }
    const json = v2TransactionText(t, locale);
    if (this.kept.size >= KEPT_MAX) this.kept.clear();
    this.kept.set(t, { inputs: viewInputs(t, locale), json });
    out.push(json);
  }

  /** Forgets every record (the store's transactions were cleared or replaced). */
  clear(): void {
    this.readOnce.clear();
    this.kept.clear();
  }
}

/** types.type of a v2 transaction; another connector type (TRAINING) is DEFAULT there, as sent in the code. */
const V2_TRANSACTION_TYPES = new Set(['DEFAULT', 'CREDIT_CARD', 'TRANSFER', 'PAYMENT', 'WITHDRAWAL']);

/** Date -> its midnight-UTC date-time, flat; a page repeats few dates. */
const MIDNIGHTS = new Map<string, string>();

/**
 * "2026-01-31" -> "2026-01-31T00:00:00Z". A template literal would give a rope (V8 ConsString),
 * which JSON.stringify walks for every one of a page's 300 date-times: 8 to 12% of stringifying a
 * page of 100 in a micro benchmark (within the noise of a whole request). The cached, flat copy is
 * shared instead. Bounded, because dates come from clients.
 */
function midnightUtc(date: string): string {
  let s = MIDNIGHTS.get(date);
  if (s === undefined) {
    if (MIDNIGHTS.size >= 20_000) MIDNIGHTS.clear();
    s = JSON.parse(JSON.stringify(`${date}T00:00:00Z`)) as string; // parsed: a flat string
    MIDNIGHTS.set(date, s);
  }
  return s;
}

/**
 * The reference's counterparties (data v2, Beta): the merchant as payee of money going out, the
 * description as payer of money coming in; none when the sandbox knows no name.
 */
function counterparty(t: TransactionRecord): Record<string, unknown> | undefined {
  const out = t.amount.startsWith('-');
  const name = out ? t.merchantName : t.description;
  if (!name) return undefined;
  return out ? { payee: { name } } : { payer: { name } };
}

// ---- query parsing --------------------------------------------------------------------------

/** Strict YYYY-MM-DD that is a real date, else 400 naming the parameter. */
export function isoDateParam(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  const ok =
    m &&
    (() => {
      const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
      return (
        d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3])
      );
    })();
  if (!ok) throw badRequest(`${name} must be a date YYYY-MM-DD, got "${v.slice(0, 40)}"`, { field: name });
  return v;
}

/**
 * pageSize: a whole number from 1, default `def`, at most 100. Over 100 is `over`: the account and
 * transaction lists clamp it to 100 (the vendor's reference: "The maximum number of items to return.
 * This endpoint will not return more than 100 ... per page", a page of 100 and a token, not an error);
 * the holdings list refuses it (its reference gives a "maximum value", and the sandbox keeps its 400).
 * 0, a sign, a fraction or a word is a 400 for every list.
 */
export function pageSizeParam(q: URLSearchParams, def = 100, over: 'clamp' | 'refuse' = 'refuse'): number {
  const v = q.get('pageSize');
  if (v === null || v === '') return def;
  if (!/^\d{1,40}$/.test(v))
    throw badRequest(`pageSize must be a whole number from 1 to 100, got "${v.slice(0, 40)}"`, { field: 'pageSize' });
  const n = Number(v);
  if (n < 1) throw badRequest(`pageSize must be from 1 to 100 (at most 100 per page), got ${v}`, { field: 'pageSize' });
  if (n > 100) {
    if (over === 'clamp') return 100;
    throw badRequest(`pageSize must be from 1 to 100 (at most 100 per page), got ${v}`, { field: 'pageSize' });
  }
  return n;
}

/**
 * A data v2 filter (accountIdIn, statusIn, typesIn, idIn) as the reference defines it: "may be
 * repeated", one value each (statusIn=BOOKED&statusIn=PENDING). A comma-joined value is a 400 naming
 * the repeated form: the service reads "BOOKED,PENDING" as one value (an unknown status, an account
 * id that matches nothing), so a client that joins them must find out here, not by an empty list.
 */
export function repeatedParam(q: URLSearchParams, name: string): string[] {
  const values = q.getAll(name).filter((v) => v !== '');
  for (const v of values)
    if (v.includes(','))
      throw badRequest(
        `${name}: "${v.slice(0, 60)}" joins several values with commas; repeat the parameter for each (${name}=A&${name}=B)`,
        { field: name },
      );
  return values;
}

/** An enum value of a data v2 filter, exactly as the reference writes it (upper case): else a 400. */
export function enumParam(values: string[], name: string, known: readonly string[], what: string): string[] {
  for (const v of values)
    if (!known.includes(v)) {
      const cased = known.includes(v.toUpperCase()) ? `; values are upper case: ${v.toUpperCase()}` : '';
      throw badRequest(`${name}: unknown ${what} "${v.slice(0, 40)}" (${known.join(', ')})${cased}`, { field: name });
    }
  return values;
}

/** Repeatable parameter of the v1 reads, also accepting comma-separated values. */
export function listParam(q: URLSearchParams, name: string): string[] {
  return q
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

let today = { from: 0, to: 0, iso: '' };
export function todayIso(now: number): string {
  // the day's string is kept while the clock stays within that day (asked on every page)
  if (now < today.from || now >= today.to) {
    const from = Math.floor(now / 86_400_000) * 86_400_000;
    today = { from, to: from + 86_400_000, iso: new Date(now).toISOString().slice(0, 10) };
  }
  return today.iso;
}
