import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { deleteConsent, listConsents, updateConsentLink } from '../../api/consents.js';
import { UsageError } from '../../errors.js';
import { render, type Column } from '../../output/render.js';
import { examples } from '../util.js';
import { forTerminal } from '../accounts/format.js';

const CONSENT_COLUMNS: Column[] = [
  { header: 'credentialsId', path: 'credentialsId' },
  { header: 'provider', path: 'providerName' },
  { header: 'status', path: 'status' },
  { header: 'sessionExpiry', path: 'sessionExpiryDate' },
  { header: 'accounts', path: 'accountIds', format: (v) => (Array.isArray(v) ? String(v.length) : '') },
  { header: 'error', path: 'detailedError.displayMessage' },
];

export function registerConsents(program: Command, ctx: Context): void {
  const consents = program
    .command('consents')
    .description("the user's provider consents: list, delete, renew through the link service");

  const list = consents
    .command('list')
    .description('list provider consents (GET /api/v1/provider-consents, provider-consents:read)')
    .action(async () => {
      await render(ctx, forTerminal(ctx, await listConsents(await ctx.api())), { columns: CONSENT_COLUMNS });
    });
  examples(list, [
    'bankctl consents list --user $USER_ID',
    'bankctl consents list -o json | jq \'.[] | select(.status != "UPDATED")\'',
  ]);

  const del = consents
    .command('delete')
    .argument('<credentialsId>', "the consent's credentials id")
    .description('delete a consent, which deletes its credentials (DELETE /api/v1/credentials/{id}, credentials:write)')
    .action(async (id: string) => {
      await deleteConsent(await ctx.api(), id);
      ctx.notice(`deleted consent ${id} (its credentials are deleted; accounts no other consent reaches go with them)`);
    });
  examples(del, ['bankctl consents delete 6e68cc6287704273984567b3300c5823 --user $USER_ID']);

  const link = consents
    .command('update-link')
    .argument('<credentialsId>', "the consent's credentials id")
    .description('print the link-service URL that renews a consent (a single-use code is granted for it)')
    .option('--redirect-uri <uri>', 'where the link service returns the user', 'http://localhost:3000/callback')
    .option('--market <code>', 'market shown by the link service')
    .option('--locale <locale>', 'locale of the page, e.g. sv_SE')
    .option('--state <state>', 'returned verbatim to the redirect URI')
    .option('--actor-client-id <id>', 'the client that may use the code (default: your own client id)')
    .option('--id-hint <text>', 'who the user is, shown to them (ISO-8859-1; default: the user id)')
    .action(
      async (
        credentialsId: string,
        o: {
          redirectUri: string;
          market?: string;
          locale?: string;
          state?: string;
          actorClientId?: string;
          idHint?: string;
        },
      ) => {
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
        const settings = await ctx.settings();
        const clientId = settings.value('client-id');
        if (!clientId)
          throw new UsageError('no client id', { hint: 'run `bankctl auth login` or set BANKCTL_CLIENT_ID' });
        const url = await updateConsentLink(await ctx.api(), {
          linkUrl: settings.value('link-url')!,
          clientId,
          user,
          credentialsId,
          redirectUri: o.redirectUri,
          market: o.market?.toUpperCase(),
          locale: o.locale,
          state: o.state,
          actorClientId: o.actorClientId,
          idHint: o.idHint ?? user.userId ?? user.externalUserId!,
        });
        // the bare URL for $(...), unless a JSON format is asked for explicitly
        if (ctx.globals.output === 'json' || ctx.globals.output === 'ndjson')
          return render(ctx, { url, credentialsId });
        ctx.io.stdout.write(`${url}\n`);
      },
    );
  examples(link, [
    'bankctl consents update-link 6e68cc6287704273984567b3300c5823 --user $USER_ID',
    'open "$(bankctl consents update-link $CREDS --user $USER_ID --state "$STATE")"',
  ]);
}
