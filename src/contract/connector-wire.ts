// The connector's wire format, shared by the CLI (validation before sending) and the sandbox
// (validation on arrival). Amounts are JSON numbers on the wire; to keep them exact, JSON is read
// with every number kept as its source text (an ExactNumber, exact-json.ts) and written back verbatim.
import { numberTextToDecimal } from './decimal.js';
import { ExactNumber, writeJson } from './exact-json.js';
import { MARKETS } from './markets.js';
import { ACCOUNT_TYPES, type AccountType } from './vocabulary.js';

export { ExactNumber, JsonSyntaxError, parseExactJson, stringifyExact } from './exact-json.js';

/** Replaces ExactNumbers by plain numbers (payloads handed back to readers). */
export function toPlain(v: unknown): unknown {
  if (v instanceof ExactNumber) return Number(v.text);
  if (Array.isArray(v)) return v.map(toPlain);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = toPlain(x);
    return out;
  }
  return v;
}

/** An amount field as an exact decimal string, or undefined when it is not a number. */
export function decimalOf(v: unknown): string | undefined {
  if (v instanceof ExactNumber) return numberTextToDecimal(v.text);
  if (typeof v === 'number' && Number.isFinite(v)) return numberTextToDecimal(String(v));
  return undefined;
}

// ---- validation -----------------------------------------------------------------------------

export const EXCLUSIONS = ['PFM_AND_SEARCH', 'PFM_DATA', 'NONE'] as const;
// the reference's values (the spec's and DUMMY, TRAINING: a body written to the reference is accepted)
export const TRANSACTION_TYPES = ['DEFAULT', 'CREDIT_CARD', 'TRANSFER', 'PAYMENT', 'WITHDRAWAL', 'TRAINING'] as const;
export const INGEST_TYPES = ['REAL_TIME', 'HISTORICAL', 'BATCH'] as const;
/**
 * The reference: HISTORICAL "is deprecated. Requests of type HISTORICAL are processed with same
 * priority as BATCH but account balance will be ignored": the service stores its transactions, not
 * its balances (the sandbox too), and a push reports them not applied.
 */
export const BALANCE_IGNORED_TYPE = 'HISTORICAL';
/** The input file formats of `connector push`, `verify` and `accounts push`. */
export const INPUT_FORMATS = ['json', 'ndjson', 'csv'] as const;
export const MAX_TRANSACTIONS_PER_REQUEST = 2500;
export const MAX_BATCH_ENTITIES = 2500;
export const MAX_TOKEN_TTL = 10800;
export const MAX_ID_LENGTH = 256;
export const MAX_TEXT_LENGTH = 4096;

export type Obj = Record<string, unknown>;

/** Validation failure: the message names the field path. */
export class WireError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

export function isObj(v: unknown): v is Obj {
  return !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof ExactNumber);
}

export function obj(v: unknown, field: string): Obj {
  if (!isObj(v)) throw new WireError(field, 'must be a JSON object');
  return v;
}

export function str(o: Obj, key: string, path: string, required: boolean, max = MAX_TEXT_LENGTH): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw new WireError(`${path}${key}`, 'is required');
    return undefined;
  }
  if (typeof v !== 'string') throw new WireError(`${path}${key}`, 'must be a string');
  if (required && v.trim() === '') throw new WireError(`${path}${key}`, 'must not be empty');
  if (v.length > max) throw new WireError(`${path}${key}`, `is longer than ${max} characters`);
  return v;
}

export function id(o: Obj, key: string, path: string, required = true): string | undefined {
  return str(o, key, path, required, MAX_ID_LENGTH);
}

export function bool(o: Obj, key: string, path: string): boolean | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new WireError(`${path}${key}`, 'must be true or false');
  return v;
}

/** A JSON number's text: what a csv cell of a number holds. */
export const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * "must be a number, got ..." with what came (its first 40 characters), and for a decimal comma
 * ("-12,50", as Swedish banks' exports write it) the amount it most likely meant; for a JSON string
 * holding a number, that the quotes are what is wrong. The message alone left the user to guess
 * which form was refused. `cell`: v is a csv cell's text (no quotes to drop).
 */
export function notANumber(v: unknown, cell = false): string {
  const text = typeof v === 'string' ? v.trim() : (JSON.stringify(v) ?? String(v));
  const shown = typeof v === 'string' ? `"${text.slice(0, 40)}"` : text.slice(0, 40);
  const quotes = typeof v === 'string' && !cell ? ', without quotes' : '';
  let why = '';
  if (typeof v === 'string' && /^-?\d+,\d{1,2}$/.test(text))
    why = ` (a decimal comma? write ${text.replace(',', '.')}${quotes})`;
  else if (typeof v === 'string' && !cell && NUMBER_TEXT.test(text))
    why = ' (a string: write the number without quotes)';
  return `must be a number, got ${shown}${why}`;
}

export function amount(o: Obj, key: string, path: string, required: boolean): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw new WireError(`${path}${key}`, 'is required');
    return undefined;
  }
  let d: string | undefined;
  try {
    d = decimalOf(v);
  } catch {
    throw new WireError(`${path}${key}`, 'is out of range');
  }
  if (d === undefined) throw new WireError(`${path}${key}`, notANumber(v));
  if (d.replace(/[-.]/g, '').length > 40) throw new WireError(`${path}${key}`, 'has too many digits');
  return d;
}

export function oneOf<T extends string>(
  o: Obj,
  key: string,
  path: string,
  values: readonly T[],
  required: boolean,
): T | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw new WireError(`${path}${key}`, `is required (one of ${values.join(', ')})`);
    return undefined;
  }
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v))
    throw new WireError(`${path}${key}`, `must be one of ${values.join(', ')}`);
  return v as T;
}

export function payload(o: Obj, key: string, path: string): Obj | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  return obj(v, `${path}${key}`);
}

/** The keys the reference takes in a transaction's payload. */
export const TRANSACTION_PAYLOAD_KEYS = ['PENDING_IDS', 'PENDING_TRANSACTION_EXPIRATION_DATE', 'TAGS'] as const;
/** The reference: "Maximum total size of payload data is 1000 chars"; an account's "may not exceed 200 chars". */
export const MAX_TRANSACTION_PAYLOAD = 1000;
export const MAX_ACCOUNT_PAYLOAD = 200;

/** A payload's size as the JSON text it is sent as (exact numbers as their literals). */
function payloadSize(p: Obj): number {
  return writeJson(p).length;
}

/**
 * What the reference refuses in a transaction's payload (the service then refuses the whole request,
 * up to 2,500 transactions): another key, more than 1000 characters, a tag that is not alphanumeric.
 * undefined when it passes.
 */
export function transactionPayloadProblem(p: Obj): { field: string; message: string } | undefined {
  const other = Object.keys(p).find((k) => !(TRANSACTION_PAYLOAD_KEYS as readonly string[]).includes(k));
  if (other !== undefined)
    return {
      field: `payload.${other.slice(0, 40)}`,
      message: `is not a payload key the service takes (${TRANSACTION_PAYLOAD_KEYS.join(', ')})`,
    };
  const size = payloadSize(p);
  if (size > MAX_TRANSACTION_PAYLOAD)
    return { field: 'payload', message: `is ${size} characters of JSON, more than ${MAX_TRANSACTION_PAYLOAD}` };
  const tags = p.TAGS;
  if (Array.isArray(tags) && tags.some((t) => typeof t === 'string' && !/^[\p{L}\p{N}]+$/u.test(t)))
    return { field: 'payload.TAGS', message: 'each tag must be letters and digits, without whitespace' };
  return undefined;
}

export function stringArray(v: unknown, field: string): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw new WireError(field, 'must be an array of strings');
  return v as string[];
}

export function epochMs(o: Obj, key: string, path: string): number {
  const v = o[key];
  if (v === undefined || v === null) throw new WireError(`${path}${key}`, 'is required (epoch milliseconds)');
  const text = v instanceof ExactNumber ? v.text : typeof v === 'number' ? String(v) : undefined;
  if (text === undefined || !/^-?\d+$/.test(text))
    throw new WireError(`${path}${key}`, 'must be a whole number of epoch milliseconds');
  const n = Number(text);
  if (!Number.isSafeInteger(n) || Math.abs(n) > 8.64e15) throw new WireError(`${path}${key}`, 'is out of range');
  return n;
}

export interface UserEntity {
  externalId: string;
  token: string;
  blocked?: boolean;
  label?: string;
  locale?: string;
  market?: string;
}

export function validateUser(v: unknown): UserEntity {
  const o = obj(v, 'body');
  const u: UserEntity = { externalId: id(o, 'externalId', '')!, token: str(o, 'token', '', true, 1024)! };
  u.blocked = bool(o, 'blocked', '');
  u.label = str(o, 'label', '', false, 256);
  u.locale = str(o, 'locale', '', false, 16);
  u.market = str(o, 'market', '', false, 8);
  return u;
}

export interface AccountEntity {
  externalId: string;
  name: string;
  number: string;
  balance: string;
  type: AccountType;
  availableCredit?: string;
  reservedAmount?: string;
  closed?: boolean;
  exclusion?: (typeof EXCLUSIONS)[number];
  flags?: string[];
  payload?: Obj;
}

export function validateAccount(v: unknown, path = ''): AccountEntity {
  const o = obj(v, path || 'account');
  const flags = o.flags === undefined || o.flags === null ? undefined : stringArray(o.flags, `${path}flags`);
  return {
    externalId: id(o, 'externalId', path)!,
    name: str(o, 'name', path, true)!,
    number: str(o, 'number', path, true, 256)!,
    balance: amount(o, 'balance', path, true)!,
    type: oneOf(o, 'type', path, ACCOUNT_TYPES, true)!,
    availableCredit: amount(o, 'availableCredit', path, false),
    reservedAmount: amount(o, 'reservedAmount', path, false),
    closed: bool(o, 'closed', path),
    exclusion: oneOf(o, 'exclusion', path, EXCLUSIONS, false),
    flags,
    payload: accountPayload(o, path),
  };
}

function accountPayload(o: Obj, path: string): Obj | undefined {
  const p = payload(o, 'payload', path);
  const size = p === undefined ? 0 : payloadSize(p);
  if (size > MAX_ACCOUNT_PAYLOAD)
    throw new WireError(`${path}payload`, `is ${size} characters of JSON, more than ${MAX_ACCOUNT_PAYLOAD}`);
  return p;
}

export interface TransactionEntity {
  externalId: string;
  amount: string;
  date: number;
  description: string;
  type: (typeof TRANSACTION_TYPES)[number];
  pending?: boolean;
  platformId?: string;
  /** The reference's merchant fields and counterparties (read back in data v2's merchantInformation). */
  merchantName?: string;
  merchantCategoryCode?: string;
  counterparties?: Obj;
  payload?: Obj;
  /** PENDING_IDS of the payload, checked. */
  pendingIds?: string[];
  /** TAGS of the payload, checked. */
  tags?: string[];
}

export function validateTransaction(v: unknown, path = ''): TransactionEntity {
  const o = obj(v, path || 'transaction');
  const p = payload(o, 'payload', path);
  const t: TransactionEntity = {
    externalId: id(o, 'externalId', path)!,
    amount: amount(o, 'amount', path, true)!,
    date: epochMs(o, 'date', path),
    description: str(o, 'description', path, true)!,
    type: oneOf(o, 'type', path, TRANSACTION_TYPES, true)!,
    pending: bool(o, 'pending', path),
    // the spec's platformId is the reference's tinkId: either is read
    platformId: id(o, 'platformId', path, false) ?? id(o, 'tinkId', path, false),
    payload: p,
  };
  // only when sent, so that a stored transaction without them has no slot for them
  const merchantName = str(o, 'merchantName', path, false);
  if (merchantName !== undefined) t.merchantName = merchantName;
  const mcc = id(o, 'merchantCategoryCode', path, false);
  if (mcc !== undefined && !/^\d{4}$/.test(mcc))
    throw new WireError(`${path}merchantCategoryCode`, 'must be an ISO 18245 code of 4 digits');
  if (mcc !== undefined) t.merchantCategoryCode = mcc;
  const counterparties = payload(o, 'counterparties', path);
  if (counterparties !== undefined) t.counterparties = counterparties;
  if (p && p.PENDING_IDS !== undefined) t.pendingIds = stringArray(p.PENDING_IDS, `${path}payload.PENDING_IDS`);
  if (p && p.TAGS !== undefined) t.tags = stringArray(p.TAGS, `${path}payload.TAGS`);
  const problem = p && transactionPayloadProblem(p);
  if (problem) throw new WireError(`${path}${problem.field}`, problem.message);
  if (t.pendingIds && t.pending === true)
    throw new WireError(`${path}payload.PENDING_IDS`, 'only a non-pending transaction can replace pending ones');
  if (t.pendingIds?.includes(t.externalId))
    throw new WireError(
      `${path}payload.PENDING_IDS`,
      'names the transaction itself; to book a pending transaction under the same externalId use PUT',
    );
  return t;
}

export interface TransactionAccountEntity {
  externalId?: string;
  platformId?: string;
  balance: string;
  reservedAmount?: string;
  payload?: Obj;
  transactions: TransactionEntity[];
}

export interface TransactionContainer {
  type: (typeof INGEST_TYPES)[number];
  transactionAccounts: TransactionAccountEntity[];
  /** Transactions over all accounts. */
  count: number;
}

/**
 * CreateTransactionAccountContainer (mode create), DeleteTransactionAccountsContainer (delete:
 * transactions hold only externalId) or UpdateTransactionAccountContainer (update: REAL_TIME only,
 * account by externalId or platformId).
 */
export function validateContainer(v: unknown, mode: 'create' | 'delete' | 'update' = 'create'): TransactionContainer {
  const o = obj(v, 'body');
  const type = oneOf(o, 'type', '', INGEST_TYPES, true)!;
  if (mode === 'update' && type !== 'REAL_TIME') throw new WireError('type', 'an update must be REAL_TIME');
  const list = o.transactionAccounts;
  if (!Array.isArray(list)) throw new WireError('transactionAccounts', 'is required (an array)');
  let count = 0;
  const accounts: TransactionAccountEntity[] = [];
  for (let i = 0; i < list.length; i++) {
    const path = `transactionAccounts[${i}].`;
    const a = obj(list[i], `transactionAccounts[${i}]`);
    const entry: TransactionAccountEntity = {
      externalId: id(a, 'externalId', path, mode !== 'update'),
      platformId: mode === 'update' ? (id(a, 'platformId', path, false) ?? id(a, 'tinkId', path, false)) : undefined,
      balance: amount(a, 'balance', path, true)!,
      reservedAmount: amount(a, 'reservedAmount', path, false),
      payload: payload(a, 'payload', path),
      transactions: [],
    };
    if (mode === 'update' && entry.externalId === undefined && entry.platformId === undefined)
      throw new WireError(`${path}externalId`, 'externalId or tinkId (platformId) of the account is required');
    const txs = a.transactions;
    if (!Array.isArray(txs)) throw new WireError(`${path}transactions`, 'is required (an array)');
    count += txs.length;
    if (count > MAX_TRANSACTIONS_PER_REQUEST)
      throw new WireError(
        'transactionAccounts',
        `more than ${MAX_TRANSACTIONS_PER_REQUEST} transactions in one request (counted over all accounts)`,
      );
    for (let j = 0; j < txs.length; j++) {
      const tpath = `${path}transactions[${j}].`;
      if (mode === 'delete') {
        const t = obj(txs[j], `${path}transactions[${j}]`);
        entry.transactions.push({ externalId: id(t, 'externalId', tpath)! } as TransactionEntity);
      } else entry.transactions.push(validateTransaction(txs[j], tpath));
    }
    accounts.push(entry);
  }
  return { type, transactionAccounts: accounts, count };
}

export function isKnownMarket(m: string): boolean {
  return MARKETS.includes(m);
}
