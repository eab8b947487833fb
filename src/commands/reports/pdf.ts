// `reports pdf ID -O FILE`: the report's PDF, byte for byte, to a file or to a pipe.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeFileAtomic } from '../../fs/atomic.js';
import { reportPdf, REPORT_TEMPLATES } from '../../api/reports.js';
import { UsageError } from '../../errors.js';
import { examples, printsBare, type Run } from '../util.js';

export interface PdfOptions {
  id: string;
  template: string;
  /** A file, or "-" for standard output. */
  outputFile: string;
}

export function newCmdPdf(parent: Command, ctx: Context, run: Run<PdfOptions> = pdfRun): Command {
  const cmd = parent
    .command('pdf')
    .argument('<id>', 'report id')
    .description('the report as a PDF, written byte for byte (GET /api/v1/account-verification-reports/{id}/pdf)')
    .option('--template <name>', `PDF template (${REPORT_TEMPLATES.join(', ')})`, 'standard-1.0')
    .option('-O, --output-file <file>', 'where to write the PDF (default report-<id>.pdf); "-" for standard output')
    .action(async (id: string, o: { template: string; outputFile?: string }) => {
      // without -O: report-<id>.pdf in the current directory (0600), and the command says where
      const outputFile = o.outputFile ?? `report-${id.replace(/[^\w.-]/g, '_')}.pdf`;
      if (o.outputFile === '-' && ctx.io.stdoutIsTTY)
        throw new UsageError('refusing to write a PDF to a terminal', {
          hint: 'redirect standard output, or give -O FILE',
        });
      await run(ctx, { id, template: o.template, outputFile });
    });
  printsBare(cmd, "the report's PDF");
  return examples(cmd, [
    'bankctl reports pdf $ID                 # writes report-$ID.pdf (0600)',
    'bankctl reports pdf $ID -O report.pdf',
    'bankctl reports pdf $ID --template standard-1.0 -O - > report.pdf',
  ]);
}

export async function pdfRun(ctx: Context, o: PdfOptions): Promise<void> {
  const bytes = await reportPdf(await ctx.api(), o.id, o.template);
  if (o.outputFile === '-') {
    await new Promise<void>((resolve, reject) => ctx.io.stdout.write(bytes, (err) => (err ? reject(err) : resolve())));
    return;
  }
  // atomic, 0600, never through a link planted at the name (src/fs/atomic.ts)
  await writeFileAtomic(resolve(ctx.io.cwd, o.outputFile), bytes, { what: 'the report' });
  ctx.notice(`wrote ${bytes.length} bytes to ${resolve(ctx.io.cwd, o.outputFile)}`);
}
