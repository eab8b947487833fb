// `transactions report ID`: a transaction report (GET /data/v2/transaction-reports/{id}, client
// token, transaction-reports:readonly): the report's transactions, or the whole report with -o json.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getTransactionReport } from '../../api/data-v2.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { TRANSACTION_COLUMNS } from './list.js';

export interface ReportOptions {
  id: string;
}

export function newCmdReport(parent: Command, ctx: Context, run: Run<ReportOptions> = reportRun): Command {
  const cmd = parent
    .command('report')
    .argument('<id>', 'transaction report id (the transaction_report_id of a Link session flow)')
    .description(
      "a transaction report's transactions (data v2: GET /data/v2/transaction-reports/{id}, client token, transaction-reports:readonly); -o json gives the whole report",
    )
    .action(async (id: string) => run(ctx, { id }));
  return examples(cmd, [
    'bankctl transactions report $REPORT_ID',
    'bankctl transactions report $REPORT_ID -o json | jq ".accounts | length"',
  ]);
}

export async function reportRun(ctx: Context, o: ReportOptions): Promise<void> {
  const report = await getTransactionReport(await ctx.api(), o.id);
  if ((await ctx.outputFormat()) === 'json') return render(ctx, report);
  const rows = Array.isArray(report.transactions) ? report.transactions : [];
  await render(ctx, rows, { columns: TRANSACTION_COLUMNS });
}
