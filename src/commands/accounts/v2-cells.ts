// Cells of the data v2 and connectivity v2 reads: an amount {currencyCode|currency, value: {scale,
// unscaledValue}} (strings or integers, as the reference writes them) as "-0.05 SEK", exactly.
import type { Context } from '../../context.js';
import { cell, render, type Column } from '../../output/render.js';
import { amountCell } from './format.js';

/**
 * '' for no amount (absent or null); an amount that is there but cannot be read exactly (a value
 * without its scale or unscaledValue, a string where the object should be) is a ServerError (exit 7),
 * never a blank cell: format.ts's amountCell, the reader of `transactions list`, so every v2 read
 * shows an amount the same way (with the currency's minor units, "19000.00 EUR").
 */
export function v2Money(v: unknown, field = 'amount'): string {
  return amountCell(v, field);
}

/** An amount column: two csv columns (the decimal, the currency) whatever the rows hold, even none. */
export const moneyCol = (header: string, path: string): Column => ({
  header,
  path,
  format: (v) => v2Money(v, path),
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
