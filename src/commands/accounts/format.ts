// Cells for the read commands: exact amounts with their currency, bank text made safe for a terminal.
import type { Context } from '../../context.js';
import { exactDecimal } from '../../contract/decimal.js';
import { ExactNumber } from '../../contract/exact-json.js';
import { decimalString, formatAmount, isExactAmount, withMinorUnits } from '../../output/money.js';
import { stripControl } from '../../output/sanitize.js';
import type { Column } from '../../output/render.js';

/** A number ("-12.50", "1e3", a JSON number as read) as it should be shown, without a float in between. */
export function exactText(v: unknown): string {
  if (v === undefined || v === null || v === '') return '';
  return exactDecimal(v) ?? stripControl(String(v).trim());
}

/** A v2 amount {currencyCode, value: {scale, unscaledValue}} as "-0.05 SEK". */
export function amountCell(v: unknown): string {
  if (!isExactAmount(v)) return '';
  try {
    return formatAmount(v);
  } catch {
    return '';
  }
}

/**
 * One balance of `accounts balances`, in either shape the service sends: the reference's flat v1
 * `{currencyCode, scale, unscaledValue}` (JSON numbers) or the spec's `{amount: {currencyCode, value}}`.
 */
export function balanceAmountCell(v: unknown): string {
  if (!v || typeof v !== 'object') return '';
  const b = v as { amount?: unknown; currencyCode?: unknown; scale?: unknown; unscaledValue?: unknown };
  if (b.amount !== undefined) return amountCell(b.amount);
  if (b.unscaledValue === undefined || b.unscaledValue === null || b.scale === undefined || b.scale === null) return '';
  try {
    const n = decimalString(String(b.unscaledValue), String(b.scale));
    return typeof b.currencyCode === 'string' ? `${n} ${stripControl(b.currencyCode)}` : n;
  } catch {
    return '';
  }
}

/** v1 money: currencyDenominatedBalance when present, else the balance text with the currency. */
export function balanceCell(item: Record<string, unknown>): string {
  const d = item.currencyDenominatedBalance as
    { unscaledValue?: unknown; scale?: unknown; currencyCode?: string } | null | undefined;
  if (d && d.unscaledValue !== undefined && d.scale !== undefined) {
    try {
      const n = withMinorUnits(decimalString(String(d.unscaledValue), String(d.scale)), d.currencyCode);
      return `${n}${d.currencyCode ? ` ${d.currencyCode}` : ''}`;
    } catch {
      /* fall through to the balance text */
    }
  }
  return exactText(item.balance);
}

export function moneyColumn(header: string, path: string, currencyPath?: string): Column {
  return {
    header,
    path,
    format: (v, item) => {
      const text = exactText(v);
      const cur = currencyPath ? (item as Record<string, unknown>)[currencyPath] : undefined;
      return text && typeof cur === 'string' ? `${withMinorUnits(text, cur)} ${cur}` : text;
    },
  };
}

/** json/ndjson to a terminal: bank text loses its control characters (JSON escapes C0, not C1). */
export function forTerminal<T>(ctx: Context, data: T): T {
  if (!ctx.io.stdoutIsTTY) return data;
  return deepStrip(data) as T;
}

function deepStrip(v: unknown): unknown {
  if (typeof v === 'string') return stripControl(v);
  if (v instanceof ExactNumber) return v;
  if (Array.isArray(v)) return v.map(deepStrip);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deepStrip(x)]));
  return v;
}
