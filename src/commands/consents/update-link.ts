// `consents update-link ID`: the link-service URL that renews a consent (a code is granted for it).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { updateConsentLink, type UpdateLinkOptions as UpdateConsentLinkOptions } from '../../api/consents.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples, marketFlag, shapingFlag, type Run } from '../util.js';

/** What api/consents.ts takes, less the link URL and client id that the run reads from the profile. */
export type UpdateLinkOptions = Omit<UpdateConsentLinkOptions, 'linkUrl' | 'clientId'>;

interface Flags {
  redirectUri: string;
  market?: string;
  locale?: string;
  state?: string;
  actorClientId?: string;
  idHint?: string;
}

export function newCmdUpdateLink(parent: Command, ctx: Context, run: Run<UpdateLinkOptions> = updateLinkRun): Command {
  const cmd = parent
    .command('update-link')
    .argument('<credentialsId>', "the consent's credentials id")
    .description('print the link-service URL that renews a consent (a single-use code is granted for it)')
    .option('--redirect-uri <uri>', 'where the link service returns the user', 'http://localhost:3000/callback')
    .option('--market <code>', 'market shown by the link service')
    .option('--locale <locale>', 'locale of the page, e.g. sv_SE')
    .option('--state <state>', 'returned verbatim to the redirect URI')
    .option(
      '--actor-client-id <id>',
      "the client that may use the code (default: the link service's, df05e4b379934cd09963197cc855bfe9, as the guide says)",
    )
    .option('--id-hint <text>', 'who the user is, shown to them (ISO-8859-1; default: the user id)')
    .action(async (credentialsId: string, o: Flags) => {
      const user = await ctx.userRef();
      if (!user)
        throw new UsageError('which user? pass --user ID or --external-user ID', {
          hint: 'the link needs a code granted for that user',
        });
      try {
        new URL(o.redirectUri);
      } catch {
        throw new UsageError(`--redirect-uri "${o.redirectUri}" is not a URL`);
      }
      await run(ctx, {
        credentialsId,
        user,
        redirectUri: o.redirectUri,
        market: marketFlag(o.market),
        locale: o.locale,
        state: o.state,
        actorClientId: o.actorClientId,
        idHint: o.idHint ?? user.userId ?? user.externalUserId!,
      });
    });
  return examples(cmd, [
    'bankctl consents update-link 6e68cc6287704273984567b3300c5823 --user $USER_ID',
    'open "$(bankctl consents update-link $CREDS --user $USER_ID --state "$STATE")"',
  ]);
}

export async function updateLinkRun(ctx: Context, o: UpdateLinkOptions): Promise<void> {
  const settings = await ctx.settings();
  const clientId = settings.value('client-id');
  if (!clientId) throw new UsageError('no client id', { hint: 'run `bankctl auth login` or set BANKCTL_CLIENT_ID' });
  const url = await updateConsentLink(await ctx.api(), { ...o, linkUrl: settings.value('link-url')!, clientId });
  // the bare URL for $(...), unless a JSON format, --jq or --fields is asked for explicitly
  const g = ctx.globals;
  if (g.output === 'json' || g.output === 'ndjson' || shapingFlag(g))
    return render(ctx, { url, credentialsId: o.credentialsId });
  ctx.io.stdout.write(`${url}\n`);
}
