// `accounts balances ID --v2`: GET /data/v2/accounts/{id}/balances (Beta; user or client token,
// accounts.balances:readonly or accounts:read): a row per kind of balance, exact, with the minor units.
import type { Context } from '../../context.js';
import { getBalancesV2 } from '../../api/data-v2.js';
import { render } from '../../output/render.js';
import { v2Money } from './v2-cells.js';
import { exactText } from './format.js';

export async function balancesV2Run(ctx: Context, o: { id: string }): Promise<void> {
  const b = await getBalancesV2(await ctx.api(), o.id);
  if ((await ctx.outputFormat()) === 'json') return render(ctx, b);
  const kinds = { ...((b.balances as Record<string, { amount?: unknown }> | undefined) ?? {}) };
  if (b.creditLimit) kinds.creditLimit = b.creditLimit as { amount?: unknown };
  const rows = Object.entries(kinds).map(([kind, v]) => ({
    accountId: b.accountId,
    kind,
    amount: v?.amount,
    minorUnits: (v?.amount as { valueInMinorUnit?: unknown } | undefined)?.valueInMinorUnit,
    refreshed: b.refreshed,
  }));
  await render(ctx, rows, {
    columns: [
      { header: 'kind', path: 'kind' },
      { header: 'amount', path: 'amount', format: (v) => v2Money(v), money: true },
      { header: 'minorUnits', path: 'minorUnits', format: (v) => exactText(v) },
      { header: 'refreshed', path: 'refreshed' },
    ],
  });
}
