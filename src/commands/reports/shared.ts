// What the report verbs share: a report as one readable table row, or one csv row per account.
import type { Context } from '../../context.js';
import { render, type Column } from '../../output/render.js';
import { moneyCol } from '../accounts/v2-cells.js';

export function reportView(r: Record<string, unknown>): Record<string, unknown> {
  const providers = (r.userDataByProvider as Array<{ accounts?: unknown[] }> | undefined) ?? [];
  return {
    id: r.id,
    userId: r.userId,
    created: typeof r.created === 'number' ? new Date(r.created).toISOString() : r.created,
    expires: typeof r.expiresAt === 'number' ? new Date(r.expiresAt).toISOString() : r.expiresAt,
    accounts: providers.reduce((n, p) => n + (p.accounts?.length ?? 0), 0),
  };
}

type Provider = { providerName?: unknown; financialInstitutionName?: unknown; accounts?: unknown[] };

/** One row per verified account, with its report and provider (the reference's accountType, or type). */
const ACCOUNT_ROW_COLUMNS: Column[] = [
  { header: 'report', path: 'report' },
  { header: 'provider', path: 'provider.providerName' },
  { header: 'institution', path: 'provider.financialInstitutionName' },
  { header: 'account', path: 'account.id' },
  { header: 'name', path: 'account.name' },
  { header: 'type', path: 'account.accountType', alt: 'account.type' },
  { header: 'accountNumber', path: 'account.accountNumber' },
  { header: 'iban', path: 'account.iban' },
  { header: 'holder', path: 'account.holderName' },
  moneyCol('balance', 'account.balance'),
];

type Row = { report: unknown; provider: Provider; account: Record<string, unknown> };

/**
 * A report as its reader shows it: json and ndjson as the service answered, a table as one row,
 * csv one row per account (a spreadsheet of who holds which account), never JSON text in a cell.
 */
export async function showReport(ctx: Context, r: Record<string, unknown>): Promise<void> {
  const format = await ctx.outputFormat();
  if (format === 'table') return render(ctx, reportView(r));
  if (format !== 'csv') return render(ctx, r);
  const providers = Array.isArray(r.userDataByProvider) ? (r.userDataByProvider as Provider[]) : [];
  const rows: Row[] = providers.flatMap((p) =>
    (Array.isArray(p.accounts) ? p.accounts : []).map((a) => ({
      report: r.id,
      provider: p,
      account: a as Record<string, unknown>,
    })),
  );
  await render(ctx, rows, { columns: ACCOUNT_ROW_COLUMNS });
}
