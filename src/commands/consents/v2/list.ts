// `consents v2 list`: the consents a token sees (GET /connectivity/v2/consents; a user's with --user,
// the app's with its client token), page after page by nextPageToken.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { EP } from '../../../contract/index.js';
import { pages } from '../../../api/data-v2.js';
import { StreamWriter } from '../../../output/render.js';
import { examples, morePages, parseIntArg, type Run } from '../../util.js';
import { CONSENT_VIEW } from './shared.js';

export interface ListOptions {
  pageSize?: number;
  pageToken?: string;
  all: boolean;
}

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description(
      "list consents: the app's (client token) or, with a user (--user, BANKCTL_USER or the profile's), that user's (GET /connectivity/v2/consents, consents:readonly; Beta)",
    )
    .option('--page-size <n>', "consents per page, 1 to 100 (the service's default is 10)")
    .option('--page-token <token>', 'start at this page (a nextPageToken)')
    .option('--all', 'follow nextPageToken to the last page')
    .action(async (f: { pageSize?: string; pageToken?: string; all?: boolean }) =>
      run(ctx, {
        pageSize: parseIntArg(f.pageSize, '--page-size', { min: 1, max: 100 }),
        pageToken: f.pageToken,
        all: Boolean(f.all),
      }),
    );
  return examples(cmd, ['bankctl consents v2 list --all', 'bankctl consents v2 list --user $USER_ID -o json']);
}

export async function listRun(ctx: Context, o: ListOptions): Promise<void> {
  const writer = new StreamWriter(ctx, await ctx.outputFormat(), CONSENT_VIEW);
  let next = '';
  const read = {
    ep: EP.consentsV2.list,
    key: 'consents',
    pageSize: o.pageSize,
    sizeParam: 'page_size',
    tokenParam: 'page_token',
  };
  for await (const page of pages(await ctx.api(), read, { all: o.all, startToken: o.pageToken })) {
    next = page.nextPageToken;
    await writer.writeMany(page.items);
  }
  await writer.end();
  if (!o.all && next) morePages(ctx, 'consents', next);
}
