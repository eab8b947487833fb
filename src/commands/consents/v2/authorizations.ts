// `consents v2 authorizations CONSENT [AUTH]`: a consent's authorizations, or one of them
// (GET /connectivity/v2/consents/{consentId}/authorizations[/{authorizationId}]; Beta).
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { EP } from '../../../contract/index.js';
import { getAuthorization } from '../../../api/consents-v2.js';
import { pages } from '../../../api/data-v2.js';
import { StreamWriter } from '../../../output/render.js';
import { examples, morePages, parseIntArg, type Run } from '../../util.js';
import { AUTHORIZATION_VIEW } from './shared.js';
import { renderOne } from '../../accounts/v2-cells.js';

export interface AuthorizationsOptions {
  consentId: string;
  authorizationId?: string;
  pageSize?: number;
  pageToken?: string;
  all: boolean;
}

export function newCmdAuthorizations(
  parent: Command,
  ctx: Context,
  run: Run<AuthorizationsOptions> = authorizationsRun,
): Command {
  const cmd = parent
    .command('authorizations')
    .argument('<consent-id>', 'consent id')
    .argument('[authorization-id]', 'one authorization')
    .description(
      "a consent's authorizations, or one (GET /connectivity/v2/consents/{consentId}/authorizations[/{authorizationId}], consents:readonly; Beta)",
    )
    .option('--page-size <n>', "authorizations per page, 1 to 100 (the service's default is 10)")
    .option('--page-token <token>', 'start at this page (a nextPageToken)')
    .option('--all', 'follow nextPageToken to the last page')
    .action(
      async (
        consentId: string,
        authorizationId: string | undefined,
        f: { pageSize?: string; pageToken?: string; all?: boolean },
      ) =>
        run(ctx, {
          consentId,
          authorizationId,
          pageSize: parseIntArg(f.pageSize, '--page-size', { min: 1, max: 100 }),
          pageToken: f.pageToken,
          all: Boolean(f.all),
        }),
    );
  return examples(cmd, [
    'bankctl consents v2 authorizations $CONSENT_ID --all',
    'bankctl consents v2 authorizations $CONSENT_ID $AUTHORIZATION_ID -o json',
  ]);
}

export async function authorizationsRun(ctx: Context, o: AuthorizationsOptions): Promise<void> {
  const api = await ctx.api();
  if (o.authorizationId) {
    const a = await getAuthorization(api, o.consentId, o.authorizationId);
    return renderOne(ctx, a, AUTHORIZATION_VIEW);
  }
  const writer = new StreamWriter(ctx, await ctx.outputFormat(), AUTHORIZATION_VIEW);
  let next = '';
  const read = {
    ep: EP.consentsV2.authorizations,
    key: 'authorizations',
    path: { consentId: o.consentId },
    pageSize: o.pageSize,
    sizeParam: 'page_size',
    tokenParam: 'page_token',
  };
  for await (const page of pages(api, read, { all: o.all, startToken: o.pageToken })) {
    next = page.nextPageToken;
    await writer.writeMany(page.items);
  }
  await writer.end();
  if (!o.all && next) morePages(ctx, 'authorizations', next);
}
