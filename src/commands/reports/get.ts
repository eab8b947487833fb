// `reports get ID`: a report, while it lives.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getReport } from '../../api/reports.js';
import { examples, type Run } from '../util.js';
import { showReport } from './shared.js';

export interface GetOptions {
  id: string;
}

export function newCmdGet(parent: Command, ctx: Context, run: Run<GetOptions> = getRun): Command {
  const cmd = parent
    .command('get')
    .argument('<id>', 'report id')
    .description('a report (GET /api/v1/account-verification-reports/{id}); 404 once expired')
    .action(async (id: string) => run(ctx, { id }));
  return examples(cmd, ['bankctl reports get $ID -o json']);
}

export async function getRun(ctx: Context, o: GetOptions): Promise<void> {
  const r = await getReport(await ctx.api(), o.id);
  await showReport(ctx, r);
}
