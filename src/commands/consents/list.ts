// `consents list`: the user's provider consents.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listConsents } from '../../api/consents.js';
import { render, type Column } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { V1_PROVIDER_CONSENT_FIELDS } from '../../contract/item-fields.js';

const CONSENT_COLUMNS: Column[] = [
  { header: 'credentialsId', path: 'credentialsId' },
  { header: 'provider', path: 'providerName' },
  { header: 'status', path: 'status' },
  { header: 'sessionExpiry', path: 'sessionExpiryDate' },
  { header: 'accounts', path: 'accountIds', format: (v) => (Array.isArray(v) ? String(v.length) : '') },
  { header: 'error', path: 'detailedError.displayMessage' },
];

export type ListOptions = Record<string, never>;

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description('list provider consents (GET /api/v1/provider-consents, provider-consents:read)')
    .action(async () => run(ctx, {}));
  return examples(cmd, [
    'bankctl consents list --user $USER_ID',
    'bankctl consents list -o json | jq \'.[] | select(.status != "UPDATED")\'',
  ]);
}

export async function listRun(ctx: Context): Promise<void> {
  await render(ctx, await listConsents(await ctx.api()), {
    columns: CONSENT_COLUMNS,
    declared: V1_PROVIDER_CONSENT_FIELDS,
  });
}
