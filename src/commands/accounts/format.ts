// Cells for the read commands: exact amounts with their currency, bank text made safe for a terminal.
// An amount that is there but cannot be read exactly (an unscaledValue "abc" or 1.2e+29, a scale 2.5
// or "99999999999") is not what the service returns: a ServerError (exit 7) naming the field and the
// value, never a blank cell. An amount that is absent or null is an empty cell (the service sends a
// null balance for an account excluded from aggregation).
import { exactDecimal } from '../../contract/decimal.js';
import { ExactNumber } from '../../contract/exact-json.js';
import { visibleCode } from '../../output/sanitize.js';
import { isObject } from '../../api/shape.js';
import { exactValue, MAX_DIGITS, MAX_EXPONENT, unreadable, withMinorUnits } from '../../output/money.js';
import type { Column } from '../../output/render.js';
import type { Context } from '../../context.js';

const absent = (v: unknown): v is undefined | null => v === undefined || v === null;

/** A currency code: a string, or nothing. */
function currencyOf(v: unknown, field: string): string | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'string') throw unreadable(field, v, 'not a currency code');
  return visibleCode(v);
}

const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?$/;

/**
 * A JSON number ("-12.50", "1e3", a number as read, an ExactNumber) as exact decimal text, without
 * a float in between; '' when absent or null. Anything else, or an exponent beyond MAX_EXPONENT or
 * more than MAX_DIGITS digits, is a ServerError naming `field`.
 */
export function exactText(v: unknown, field = 'a number'): string {
  if (absent(v) || v === '') return '';
  const text = typeof v === 'string' ? v.trim() : typeof v === 'number' || v instanceof ExactNumber ? String(v) : '';
  const m = NUMBER_TEXT.exec(text);
  if (!m) throw unreadable(field, v, 'not a number');
  if (m[1] !== undefined && (!/^[+-]?0*\d{1,4}$/.test(m[1]) || Math.abs(Number(m[1])) > MAX_EXPONENT))
    throw unreadable(field, v, `an exponent beyond ${MAX_EXPONENT}`);
  if (text.replace(/[eE].*$/, '').replace(/\D/g, '').length > MAX_DIGITS)
    throw unreadable(field, v, `more than ${MAX_DIGITS} digits`);
  const d = exactDecimal(text);
  if (d === undefined) throw unreadable(field, v, 'not a number');
  return d;
}

/**
 * A v2 amount {currencyCode, value: {scale, unscaledValue}} as "-0.05 SEK" ('' when absent or null);
 * connectivity v2 names the currency `currency`, read when there is no currencyCode.
 */
export function amountCell(v: unknown, field = 'amount'): string {
  if (absent(v)) return '';
  if (!isObject(v)) throw unreadable(field, v, 'not an amount {currencyCode, value: {unscaledValue, scale}}');
  const value = v.value;
  if (!isObject(value)) throw unreadable(`${field}.value`, value, 'not {unscaledValue, scale}');
  const currency = absent(v.currencyCode)
    ? currencyOf(v.currency, `${field}.currency`)
    : currencyOf(v.currencyCode, `${field}.currencyCode`);
  const n = withMinorUnits(exactValue(value.unscaledValue, value.scale, `${field}.value`), currency);
  return currency ? `${n} ${currency}` : n;
}

/**
 * One balance of `accounts balances`, in either shape the service sends: the reference's flat v1
 * `{currencyCode, scale, unscaledValue}` (JSON numbers) or the spec's `{amount: {currencyCode, value}}`.
 * '' when absent or null (or with neither unscaledValue nor scale); unreadable is a ServerError.
 */
export function balanceAmountCell(v: unknown, field = 'balance'): string {
  if (absent(v)) return '';
  if (!isObject(v)) throw unreadable(field, v, 'not a balance');
  if (v.amount !== undefined) return amountCell(v.amount, `${field}.amount`);
  if (absent(v.unscaledValue) && absent(v.scale)) return '';
  const currency = currencyOf(v.currencyCode, `${field}.currencyCode`);
  const n = exactValue(v.unscaledValue, v.scale, field);
  return currency ? `${n} ${currency}` : n;
}

/**
 * v1 money: currencyDenominatedBalance when present, else the balance text with the currency; ''
 * when both are absent or null. A present one that cannot be read exactly is a ServerError.
 */
export function balanceCell(item: Record<string, unknown>): string {
  const d = item.currencyDenominatedBalance;
  if (!absent(d)) {
    const field = 'currencyDenominatedBalance';
    if (!isObject(d)) throw unreadable(field, d, 'not {unscaledValue, scale, currencyCode}');
    if (!absent(d.unscaledValue) || !absent(d.scale)) {
      const currency = currencyOf(d.currencyCode, `${field}.currencyCode`);
      const n = withMinorUnits(exactValue(d.unscaledValue, d.scale, field), currency);
      return `${n}${currency ? ` ${currency}` : ''}`;
    }
  }
  return exactText(item.balance, 'balance');
}

/**
 * Each item's currency: its own `currency` (the sandbox's loans), else its account's. A loan or a
 * portfolio of the reference names none (an instrument's currency is the one it trades in, not the
 * portfolio's): the accounts are read once, only when an item lacks one.
 */
export async function accountCurrencies(
  ctx: Context,
  items: unknown[],
): Promise<(item: unknown) => string | undefined> {
  const own = (i: unknown) => (i as { currency?: unknown }).currency;
  if (items.every((i) => typeof own(i) === 'string')) return (i) => own(i) as string;
  const { listAccounts } = await import('../../api/accounts.js');
  const byAccount = new Map<unknown, unknown>(
    (await listAccounts(await ctx.api())).map((a) => [a.id, a.currencyDenominatedBalance?.currencyCode]),
  );
  return (i) => {
    const c = own(i) ?? byAccount.get((i as { accountId?: unknown }).accountId);
    return typeof c === 'string' ? c : undefined;
  };
}

/**
 * An amount column; with a currency (the item's property of that name, or a function of the item),
 * two csv columns (the decimal, the currency) even for no rows.
 */
export function moneyColumn(header: string, path: string, currency?: string | ((item: unknown) => unknown)): Column {
  const currencyOf =
    typeof currency === 'string' ? (item: unknown) => (item as Record<string, unknown>)[currency] : currency;
  return {
    header,
    path,
    money: currency !== undefined,
    format: (v, item) => {
      const text = exactText(v, path);
      const cur = currencyOf?.(item);
      return text && typeof cur === 'string' ? `${withMinorUnits(text, cur)} ${cur}` : text;
    },
  };
}
