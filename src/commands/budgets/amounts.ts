// Flags to wire values for budgets: exact amounts, dates, filters; and amounts for display.
import { UsageError } from '../../errors.js';
import { beyondMinorUnits, decimalString, parseDecimal } from '../../output/money.js';
import type { BudgetFilter, DenominatedAmount } from '../../api/budgets.js';
import { visibleCode } from '../../output/sanitize.js';
import { splitList } from '../util.js';

/** --amount 1500.50 --currency SEK -> {unscaledValue: 150050, scale: 2, currencyCode: 'SEK'}, exactly. */
export function amountFlag(amount: string, currency: string, flag = '--amount'): DenominatedAmount {
  const t = amount.trim();
  if (!/^\d+(\.\d+)?$/.test(t))
    throw new UsageError(`${flag} must be a positive decimal number such as 1500 or 1500.50, got "${amount}"`);
  const p = parseDecimal(t);
  if (p.unscaledValue <= 0n) throw new UsageError(`${flag} must be greater than zero`);
  const beyond = beyondMinorUnits(t, currencyFlag(currency), flag);
  if (beyond) throw new UsageError(beyond);
  // the rule is the one the message states (15 digits are exact as a JSON number everywhere); a
  // 16-digit value was taken or refused by whether it lay under 2^53
  if (p.unscaledValue.toString().length > 15)
    throw new UsageError(`${flag} has too many digits (at most 15, decimals included)`);
  const n = Number(p.unscaledValue);
  return { unscaledValue: n, scale: p.scale, currencyCode: currencyFlag(currency) };
}

export function currencyFlag(c: string): string {
  const u = c.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(u)) throw new UsageError(`--currency must be an ISO 4217 code such as SEK, got "${c}"`);
  return u;
}

/** An amount of the Swagger shape as "1500.50 SEK". */
export function denominatedText(a: DenominatedAmount | undefined, withCurrency = true): string {
  if (!a) return '';
  const n = decimalString(String(a.unscaledValue), a.scale);
  return withCurrency ? `${n} ${visibleCode(String(a.currencyCode))}` : n;
}

export function denominatedDecimal(a: DenominatedAmount | undefined): string {
  return a ? decimalString(String(a.unscaledValue), a.scale) : '0';
}

/** YYYY-MM-DD (00:00 UTC) or epoch milliseconds. `endOfDay` gives 23:59:59.999 of a date. */
export function dateFlag(v: string, flag: string, endOfDay = false): number {
  if (/^\d{9,}$/.test(v)) return Number(v);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || new Date(ms).getUTCDate() !== Number(m[3]))
    throw new UsageError(`${flag} must be a date YYYY-MM-DD or epoch milliseconds, got "${v}"`);
  return endOfDay ? ms + 86_400_000 - 1 : ms;
}

export const isoDay = (ms: number | undefined) =>
  typeof ms === 'number' ? new Date(ms).toISOString().slice(0, 10) : '';

export interface FilterFlags {
  category?: string[];
  account?: string[];
  tag?: string[];
  text?: string;
}

/**
 * The budget filter from flags, undefined when no filter flag was given: the filter properties the
 * flags give, and only those (`update` lays them over the budget's own, so `--text` keeps its
 * categories and tags). A flag given with nothing in it (`--account "$ACC"` where
 * ACC came out empty) is exit 2: taken as no filter, the budget would count every expense.
 */
export function filterFlags(o: FilterFlags): BudgetFilter | undefined {
  const f: BudgetFilter = {};
  const cats = o.category === undefined ? [] : splitList(o.category, '--category');
  for (const c of cats)
    if (!/^expenses:[a-z-]+(\.[a-z-]+)?$/.test(c))
      throw new UsageError(`--category takes an expense category code such as expenses:food.coffee, got "${c}"`);
  if (cats.length) f.categories = cats.map((code) => ({ code }));
  if (o.account !== undefined) f.accounts = splitList(o.account, '--account').map((id) => ({ id }));
  if (o.tag !== undefined) {
    const tags = splitList(o.tag, '--tag').map((t) => t.replace(/^#/, ''));
    if (tags.some((t) => t === ''))
      throw new UsageError('--tag is empty', { hint: 'give --tag a word, e.g. --tag work' });
    f.tags = tags.map((key) => ({ key }));
  }
  if (o.text !== undefined) {
    if (o.text.trim() === '')
      throw new UsageError('--text is empty', { hint: 'give --text some words, or leave it out' });
    f.freeTextQuery = o.text;
  }
  return Object.keys(f).length ? f : undefined;
}

/** A filter as one short line: "expenses:food.coffee, #coffee, "Monmouth"". */
export function filterText(f: BudgetFilter | undefined): string {
  if (!f) return '';
  const parts = [
    ...(f.categories ?? []).map((c) => c.code),
    ...(f.accounts ?? []).map((a) => `account ${a.id}`),
    ...(f.tags ?? []).map((t) => `#${t.key}`),
    ...(f.freeTextQuery ? [`"${f.freeTextQuery}"`] : []),
  ];
  return parts.length ? parts.join(', ') : 'all expenses';
}
