// One input record checked the same way whatever the format it came in: the account members, the
// date (epoch milliseconds or ISO-8601), the transaction as the wire validation reads it.
import {
  amount,
  ExactNumber,
  id,
  JsonSyntaxError,
  validateTransaction,
  WireError,
  type Obj,
  type TransactionEntity,
} from '../contract/connector-wire.js';
import { DateError, dateFromText, EPOCH_MS, secondsLike } from './dates.js';

export interface InputRecord {
  line: number;
  /** The account's externalId. */
  account?: string;
  balance?: ExactNumber;
  reservedAmount?: ExactNumber;
  /** The checked transaction. */
  tx?: TransactionEntity;
  /** What goes on the wire for this transaction (numbers as their source text). */
  wire?: Obj;
  error?: string;
  /** The offending input, for the rejects file. */
  text?: string;
  /** json: the container's type. */
  type?: string;
  /** json: the container's and the account's members bankctl does not know, passed through as written. */
  containerExtra?: Obj;
  accountExtra?: Obj;
  /** mode 'send': the transaction's externalId and its wire JSON (numbers as written). */
  externalId?: string;
  json?: string;
  /** mode 'send', ndjson: the payload's PENDING_IDS (csv and json have them in tx). */
  pendingIds?: string[];
}

/** The members of an ndjson line that belong to its account, not to the transaction. */
export const ACCOUNT_FIELDS = new Set(['account', 'balance', 'reservedAmount']);

/** An error message of a malformed record; anything else is a bug and is rethrown. */
export function message(err: unknown): string {
  if (err instanceof WireError || err instanceof JsonSyntaxError) return err.message;
  if (err instanceof DateError) return `date: ${err.message}`;
  throw err;
}

/** A date given as a string becomes its epoch milliseconds on the wire (in place). */
export function normaliseDate(wire: Obj): void {
  if (typeof wire.date === 'string') wire.date = dateFromText(wire.date);
}

/** The transaction members of o (checked): date normalised, the account's own members left out. */
export function checkTransaction(o: Obj, strip = true): { tx: TransactionEntity; wire: Obj } {
  let wire = o;
  if (strip) {
    wire = {};
    for (const k in o) if (!ACCOUNT_FIELDS.has(k)) wire[k] = o[k];
  }
  const d = wire.date;
  const given = d instanceof ExactNumber ? d.text : typeof d === 'number' ? String(d) : undefined;
  const odd = given !== undefined && EPOCH_MS.test(given) ? secondsLike(given) : undefined;
  if (odd) throw new WireError('date', odd);
  normaliseDate(wire);
  return { tx: validateTransaction(wire), wire };
}

/** An optional amount member (exact, range-checked) as its number. */
export function optionalAmount(o: Obj, key: string, path = ''): ExactNumber | undefined {
  if (o[key] === undefined || o[key] === null) return undefined;
  amount(o, key, path, true);
  return o[key] instanceof ExactNumber ? o[key] : new ExactNumber(String(o[key]));
}

/** An ndjson line's object (parsed with exact numbers) as a record. */
export function lineRecord(line: number, o: Obj): InputRecord {
  const account = id(o, 'account', '')!;
  const balance = optionalAmount(o, 'balance');
  const reservedAmount = optionalAmount(o, 'reservedAmount');
  const { tx, wire } = checkTransaction(o);
  return { line, account, balance, reservedAmount, tx, wire };
}
