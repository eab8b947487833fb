import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { createReport, getReport, reportPdf, REPORT_TEMPLATES } from '../../api/reports.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { collect, examples, splitList } from '../util.js';

function reportView(r: Record<string, unknown>): Record<string, unknown> {
  const providers = (r.userDataByProvider as Array<{ accounts?: unknown[] }> | undefined) ?? [];
  return {
    id: r.id,
    userId: r.userId,
    created: typeof r.created === 'number' ? new Date(r.created).toISOString() : r.created,
    expires: typeof r.expiresAt === 'number' ? new Date(r.expiresAt).toISOString() : r.expiresAt,
    accounts: providers.reduce((n, p) => n + (p.accounts?.length ?? 0), 0),
  };
}

export function registerReports(program: Command, ctx: Context): void {
  const reports = program
    .command('reports')
    .description('account verification reports: temporary (1 hour), with a PDF rendering');

  const create = reports
    .command('create')
    .description("create a report from the user's accounts (POST /api/v1/account-verification-reports)")
    .option('--account <id>', 'only these accounts (repeatable or comma-separated; default: all)', collect)
    .option('--external-reference <ref>', 'your own reference, kept in the report')
    .action(async (o: { account?: string[]; externalReference?: string }) => {
      const accountIds = splitList(o.account);
      const r = await createReport(await ctx.api(), {
        ...(accountIds.length ? { accountIds } : {}),
        ...(o.externalReference ? { externalReference: o.externalReference } : {}),
      });
      await render(ctx, (await ctx.outputFormat()) === 'table' ? reportView(r) : r);
      ctx.notice(`report ${String(r.id)} is available for one hour: bankctl reports pdf ${String(r.id)} -O report.pdf`);
    });
  examples(create, ['bankctl reports create --user $USER', 'ID=$(bankctl reports create -o json | jq -r .id)']);

  const get = reports
    .command('get')
    .argument('<id>', 'report id')
    .description('a report (GET /api/v1/account-verification-reports/{id}); 404 once expired')
    .action(async (id: string) => {
      const r = await getReport(await ctx.api(), id);
      await render(ctx, (await ctx.outputFormat()) === 'table' ? reportView(r) : r);
    });
  examples(get, ['bankctl reports get $ID -o json']);

  const pdf = reports
    .command('pdf')
    .argument('<id>', 'report id')
    .description('the report as a PDF, written byte for byte (GET /api/v1/account-verification-reports/{id}/pdf)')
    .option('--template <name>', `PDF template (${REPORT_TEMPLATES.join(', ')})`, 'standard-1.0')
    .option('-O, --output-file <file>', 'where to write the PDF; "-" for standard output')
    .action(async (id: string, o: { template: string; outputFile?: string }) => {
      if (!o.outputFile) throw new UsageError('where should the PDF go? give -O FILE, or -O - for standard output');
      if (o.outputFile === '-' && ctx.io.stdoutIsTTY)
        throw new UsageError('refusing to write a PDF to a terminal', {
          hint: 'redirect standard output, or give -O FILE',
        });
      const bytes = await reportPdf(await ctx.api(), id, o.template);
      if (o.outputFile === '-') {
        await new Promise<void>((resolve, reject) =>
          ctx.io.stdout.write(bytes, (err) => (err ? reject(err) : resolve())),
        );
        return;
      }
      await writeFile(o.outputFile, bytes).catch((e: NodeJS.ErrnoException) => {
        throw new UsageError(`cannot write ${o.outputFile}: ${e.code ?? e.message}`);
      });
      ctx.notice(`wrote ${bytes.length} bytes to ${o.outputFile}`);
    });
  examples(pdf, [
    'bankctl reports pdf $ID -O report.pdf',
    'bankctl reports pdf $ID --template standard-1.0 -O - > report.pdf',
  ]);
}
