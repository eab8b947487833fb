// Cells of the data v2 and connectivity v2 reads: an amount {currencyCode|currency, value: {scale,
// unscaledValue}} (strings or integers, as the reference writes them) as "-0.05 SEK", exactly.
import type { Context } from '../../context.js';
import { cell, render, type Column } from '../../output/render.js';
import { exactValue } from '../../output/money.js';
import { visibleCode } from '../../output/sanitize.js';

/** '' for no amount; an amount that cannot be read exactly is a ServerError (exit 7), never a blank cell. */
export function v2Money(v: unknown, field = 'amount'): string {
  if (!v || typeof v !== 'object') return '';
  const a = v as { currencyCode?: unknown; currency?: unknown; value?: { scale?: unknown; unscaledValue?: unknown } };
  if (!a.value || a.value.scale === undefined || a.value.unscaledValue === undefined) return '';
  const n = exactValue(a.value.unscaledValue, a.value.scale, `${field}.value`);
  const cur = typeof a.currencyCode === 'string' ? a.currencyCode : typeof a.currency === 'string' ? a.currency : '';
  return cur ? `${n} ${visibleCode(cur)}` : n;
}

/** An amount column: two csv columns (the decimal, the currency) whatever the rows hold, even none. */
export const moneyCol = (header: string, path: string): Column => ({
  header,
  path,
  format: (v) => v2Money(v),
  money: true,
});

/**
 * One record: a table shows the columns' cells one per line (header, value), so that amounts read
 * as amounts; json, ndjson and csv get the record as the service sent it (csv through the columns).
 */
export async function renderOne(
  ctx: Context,
  item: unknown,
  { columns, declared }: { columns: Column[]; declared?: readonly string[] },
): Promise<void> {
  if ((await ctx.outputFormat()) !== 'table' || ctx.globals.fields || !item || typeof item !== 'object')
    return render(ctx, item, { columns, declared });
  const flat: Record<string, string> = {};
  for (const c of columns) flat[c.header] = cell(item, c);
  await render(ctx, flat);
}
