// `consents v2 get ID`: one consent (GET /connectivity/v2/consents/{consentId}; Beta).
import { renderOne } from '../../accounts/v2-cells.js';
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { getConsent } from '../../../api/consents-v2.js';
import { examples, type Run } from '../../util.js';
import { CONSENT_VIEW } from './shared.js';

export interface GetOptions {
  id: string;
}

export function newCmdGet(parent: Command, ctx: Context, run: Run<GetOptions> = getRun): Command {
  const cmd = parent
    .command('get')
    .argument('<consent-id>', 'consent id')
    .description(
      "show one consent, the app's or, with a user (--user, BANKCTL_USER or the profile's), one of that user's (GET /connectivity/v2/consents/{consentId}, consents:readonly; Beta)",
    )
    .action(async (id: string) => run(ctx, { id }));
  return examples(cmd, [
    'bankctl consents v2 get $CONSENT_ID',
    'bankctl consents v2 get $CONSENT_ID -o json | jq .state',
  ]);
}

export async function getRun(ctx: Context, o: GetOptions): Promise<void> {
  await renderOne(ctx, await getConsent(await ctx.api(), o.id), CONSENT_VIEW);
}
