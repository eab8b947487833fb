// What the report verbs share: a report as one readable table row, or one csv row per account.
import type { Context } from '../../context.js';
import { render, type Column } from '../../output/render.js';
import { moneyCol } from '../accounts/v2-cells.js';

/** The reference: "The report is a temporary resource that will be available for retrieval for 1h after creation." */
const REPORT_LIFETIME_MS = 3_600_000;

/**
 * A report as one table row: the reference's fields (id, externalReference, created), the expiry
 * the sandbox sends or else the hour the reference gives from `created`, the accounts counted.
 */
export function reportView(r: Record<string, unknown>): Record<string, unknown> {
  const providers = (r.userDataByProvider as Array<{ accounts?: unknown[] }> | undefined) ?? [];
  const iso = (v: unknown) => (typeof v === 'number' ? new Date(v).toISOString() : v);
  const expires = r.expiresAt ?? (typeof r.created === 'number' ? r.created + REPORT_LIFETIME_MS : undefined);
  return {
    id: r.id,
    reference: r.externalReference,
    // the sandbox's (the reference's report names no user)
    ...(r.userId !== undefined ? { userId: r.userId } : {}),
    created: iso(r.created),
    expires: iso(expires),
    accounts: providers.reduce((n, p) => n + (p.accounts?.length ?? 0), 0),
  };
}

/** The account's holders: the reference's parties with role HOLDER, else its deprecated holderName. */
function holders(account: unknown): string {
  const a = account as { parties?: unknown; holderName?: unknown } | undefined;
  const named = (Array.isArray(a?.parties) ? a.parties : [])
    .filter((p: { role?: unknown }) => p?.role === 'HOLDER')
    .map((p: { identity?: { name?: unknown } }) => p.identity?.name)
    .filter((n): n is string => typeof n === 'string' && n !== '');
  if (named.length > 0) return named.join('; ');
  return typeof a?.holderName === 'string' ? a.holderName : '';
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
  // the reference removed the account's iban and holderName (2025-11-14) for these
  { header: 'iban', path: 'account.accountIdentifiers.iban.iban', alt: 'account.iban' },
  { header: 'holder', path: 'account', format: holders },
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
