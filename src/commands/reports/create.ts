// `reports create`: an account verification report of the user's accounts (lives one hour).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { createReport } from '../../api/reports.js';
import { collect, examples, splitList, type Run } from '../util.js';
import { showReport } from './shared.js';

export interface CreateOptions {
  accountIds: string[];
  externalReference?: string;
}

export function newCmdCreate(parent: Command, ctx: Context, run: Run<CreateOptions> = createRun): Command {
  const cmd = parent
    .command('create')
    .description("create a report from the user's accounts (POST /api/v1/account-verification-reports)")
    .option('--account <id>', 'only these accounts (repeatable or comma-separated; default: all)', collect)
    .option('--external-reference <ref>', 'your own reference, kept in the report')
    .action(async (o: { account?: string[]; externalReference?: string }) =>
      run(ctx, { accountIds: splitList(o.account, '--account'), externalReference: o.externalReference }),
    );
  return examples(cmd, ['bankctl reports create --user $USER_ID', 'ID=$(bankctl reports create -o json | jq -r .id)']);
}

export async function createRun(ctx: Context, o: CreateOptions): Promise<void> {
  const r = await createReport(await ctx.api(), {
    ...(o.accountIds.length ? { accountIds: o.accountIds } : {}),
    ...(o.externalReference ? { externalReference: o.externalReference } : {}),
  });
  await showReport(ctx, r);
  ctx.notice(`report ${String(r.id)} is available for one hour: bankctl reports pdf ${String(r.id)} -O report.pdf`);
}
