// Account verification reports (spec 4.1, 2.7): created from the user's accounts, retrievable for
// one hour by the sandbox clock (404 after), with a PDF rendering for template standard-1.0.
import { EP } from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { HttpFailure, plain } from '../http.js';
import { type Handler, type Req, type RouteRow, handleAll } from '../router.js';
import type { MemoryStore } from '../store.js';
import { userAccounts } from '../finance/data.js';
import { exactAmount, dec } from '../../contract/decimal.js';
import { buildPdf, type PdfLine } from '../finance/pdf.js';
import { credentialsOf } from './credentials-view.js';
import { personalNumber } from './identities.js';
import { providerByName } from '../providers/catalogue.js';
import { decimalString } from '../../contract/decimal.js';

export const REPORT_TTL_MS = 60 * 60 * 1000;
export const PDF_TEMPLATES = ['standard-1.0'];

interface ReportRecord {
  id: string;
  userId: string;
  clientId?: string;
  created: number;
  expiresAt: number;
  report: Record<string, unknown>;
}

class ReportState {
  reports = new Map<string, ReportRecord>();
}

const state = (store: MemoryStore) => store.area('account-verification-reports', () => new ReportState());

/** Like req.json(), but every failure is a plain-text 4xx. */
export async function plainJson(req: Req, opts: { optional?: boolean } = {}): Promise<unknown> {
  try {
    return await req.json(opts);
  } catch (err) {
    if (err instanceof HttpFailure && err.status < 500 && typeof err.body === 'object' && err.body) {
      throw plain(
        err.status,
        String((err.body as { errorMessage?: unknown }).errorMessage ?? 'malformed request body'),
      );
    }
    throw err;
  }
}

/** What the report handlers share: finding a report the caller may see. */
interface ReportsArea {
  ctx: SandboxContext;
  store: MemoryStore;
  /** The report if it exists, has not expired and the caller may see it; else 404. */
  find(req: Req): ReportRecord;
}

function reportsArea(ctx: SandboxContext): ReportsArea {
  const { store } = ctx;
  store.onUserDeleted((userId) => {
    for (const [id, r] of state(store).reports) if (r.userId === userId) state(store).reports.delete(id);
  });

  /** The report if it exists, has not expired and the caller may see it; else 404. */
  function find(req: Req): ReportRecord {
    const s = state(store);
    const r = s.reports.get(req.params.id!);
    const now = ctx.clock.now();
    if (r && r.expiresAt <= now) s.reports.delete(r.id);
    const visible =
      r &&
      r.expiresAt > now &&
      (req.auth?.kind === 'user'
        ? req.auth.userId === r.userId
        : !r.clientId || !req.auth?.clientId || r.clientId === req.auth.clientId);
    if (!visible)
      throw plain(
        404,
        `account verification report ${req.params.id!.slice(0, 64)} not found (reports expire 1 hour after creation)`,
      );
    return r!;
  }
  return { ctx, store, find };
}

function createReport({ ctx, store }: ReportsArea): Handler {
  return async (req, res) => {
    const user = req.user();
    const body = await plainJson(req);
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw plain(400, 'the body must be a JSON object (CreateAccountCheckReportRequest)');
    const b = body as Record<string, unknown>;
    let wanted: string[] | undefined;
    if (b.accountIds !== undefined && b.accountIds !== null) {
      if (!Array.isArray(b.accountIds) || b.accountIds.some((x) => typeof x !== 'string'))
        throw plain(400, 'accountIds must be an array of account ids');
      wanted = b.accountIds as string[];
    }
    if (b.externalReference !== undefined && typeof b.externalReference !== 'string')
      throw plain(400, 'externalReference must be a string');
    const all = userAccounts(store, user.id);
    let accounts = all;
    if (wanted && wanted.length > 0) {
      const unknown = wanted.filter((id) => !all.some((a) => a.id === id));
      if (unknown.length) throw plain(400, `unknown account id: ${unknown[0]!.slice(0, 64)}`);
      accounts = all.filter((a) => wanted!.includes(a.id));
    }
    if (accounts.length === 0)
      throw plain(400, 'user data missing: the user has no accounts to verify; connect credentials first');
    const now = ctx.clock.now();
    const id = store.ids.next();
    const byCredentials = new Map<string, typeof accounts>();
    for (const a of accounts) {
      const key = a.credentialsIds[0] ?? '';
      byCredentials.set(key, [...(byCredentials.get(key) ?? []), a]);
    }
    const report = {
      id,
      userId: user.id,
      created: now,
      expiresAt: now + REPORT_TTL_MS,
      market: user.market,
      locale: user.locale,
      ...(typeof b.externalReference === 'string' ? { externalReference: b.externalReference } : {}),
      userDataByProvider: [...byCredentials].map(([credentialsId, list]) => {
        // the reference's example: the provider, its institution, when its data was last updated
        // and the holder's identity; the credentials name the provider (an account pushed through
        // the connector may carry one in its payload)
        const cred = credentialsId ? credentialsOf(store, credentialsId) : undefined;
        const providerName = cred?.providerName ?? (list[0]!.payload?.providerName as string | undefined);
        const holder = list.find((a) => a.holderName)?.holderName;
        return {
          credentialsId: credentialsId || null,
          providerName: providerName ?? null,
          financialInstitutionName: (providerName && providerByName(providerName)?.financialInstitutionName) || null,
          updated: cred?.updated ?? Math.max(...list.map((a) => a.updated)),
          ...(holder ? { identity: { name: holder, ...personalNumber(user.id, holder) } } : {}),
          accounts: list.map((a) => ({
            id: a.id,
            name: a.name,
            accountType: a.type,
            type: a.type,
            accountNumber: a.accountNumber,
            iban: a.iban ?? null,
            holderName: a.holderName ?? null,
            // the reference's holders (its holderName is deprecated)
            parties: a.holderName
              ? [{ identity: { name: a.holderName, ssn: personalNumber(user.id, a.holderName).ssn }, role: 'HOLDER' }]
              : [],
            currencyCode: a.currencyCode,
            ...(a.iban ? { accountIdentifiers: { iban: { iban: a.iban } } } : {}),
            balance: a.accountExclusion === 'AGGREGATION' ? null : exactAmount(dec(a.balance), a.currencyCode),
            closed: a.closed,
          })),
        };
      }),
    };
    state(store).reports.set(id, {
      id,
      userId: user.id,
      clientId: req.auth?.clientId,
      created: now,
      expiresAt: now + REPORT_TTL_MS,
      report,
    });
    res.json(200, report);
  };
}

function getReport({ find }: ReportsArea): Handler {
  return (req, res) => {
    res.json(200, find(req).report);
  };
}

function reportPdf({ find }: ReportsArea): Handler {
  return (req, res) => {
    const template = req.query.get('template');
    if (!template) throw plain(400, `template is required (available: ${PDF_TEMPLATES.join(', ')})`);
    if (!PDF_TEMPLATES.includes(template))
      throw plain(400, `unknown template "${template.slice(0, 40)}" (available: ${PDF_TEMPLATES.join(', ')})`);
    const r = find(req);
    res.send(200, renderReportPdf(r.report), 'application/pdf', {
      'content-disposition': `attachment; filename="account-verification-${r.id}.pdf"`,
    });
  };
}

const ROUTES: Array<RouteRow<ReportsArea>> = [
  [EP.reports.create, createReport],
  [EP.reports.get, getReport],
  [EP.reports.pdf, reportPdf],
];

export function registerReports(ctx: SandboxContext): void {
  handleAll(ctx.handle, reportsArea(ctx), ROUTES);
}

type ReportJson = {
  id: string;
  userId: string;
  created: number;
  expiresAt: number;
  market: string;
  userDataByProvider: Array<{
    providerName: string | null;
    credentialsId: string | null;
    accounts: Array<Record<string, unknown>>;
  }>;
};

/** Template standard-1.0: a header, then one block per account. */
export function renderReportPdf(report: Record<string, unknown>): Buffer {
  const r = report as unknown as ReportJson;
  const lines: PdfLine[] = [
    { text: 'Account verification report', size: 18, bold: true },
    { text: `Report ${r.id}`, gap: 6 },
    { text: `User ${r.userId}, market ${r.market}` },
    { text: `Created ${new Date(r.created).toISOString()}, valid until ${new Date(r.expiresAt).toISOString()}` },
  ];
  for (const p of r.userDataByProvider) {
    lines.push({
      text: `Provider: ${p.providerName ?? 'unknown'}${p.credentialsId ? ` (credentials ${p.credentialsId})` : ''}`,
      size: 12,
      bold: true,
      gap: 12,
    });
    for (const a of p.accounts) {
      const bal = a.balance as { currencyCode: string; value: { scale: string; unscaledValue: string } } | null;
      lines.push({ text: `${String(a.name)} (${String(a.type)})`, bold: true, gap: 6 });
      lines.push({ text: `Account number: ${String(a.accountNumber)}` });
      if (a.iban) lines.push({ text: `IBAN: ${String(a.iban)}` });
      lines.push({ text: `Account holder: ${a.holderName ? String(a.holderName) : 'not provided by the bank'}` });
      if (bal)
        lines.push({ text: `Balance: ${decimalString(bal.value.unscaledValue, bal.value.scale)} ${bal.currencyCode}` });
    }
  }
  lines.push({ text: 'Generated by the bankctl sandbox from the data held for this user.', size: 8, gap: 18 });
  return buildPdf(lines, { title: `Account verification report ${r.id}`, created: r.created });
}
