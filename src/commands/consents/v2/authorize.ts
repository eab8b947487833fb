// `consents v2 authorize ID`: start the user's authorization of a consent (POST
// /connectivity/v2/consents/{consentId}/authorizations, user token, consents; Beta); with --wait,
// follow it until it ends, saying where the user logs in while the bank waits.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { getAuthorization, startAuthorization } from '../../../api/consents-v2.js';
import { FlowFailedError } from '../../../errors.js';
import { singleLine } from '../../../output/sanitize.js';
import { examples, parseIntArg, type Run } from '../../util.js';
import { AUTHORIZATION_VIEW } from './shared.js';
import { renderOne } from '../../accounts/v2-cells.js';

export interface AuthorizeOptions {
  id: string;
  appUri?: string;
  callbackUri?: string;
  idempotencyKey?: string;
  wait: boolean;
  timeoutSeconds: number;
}

const FINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELED', 'REVOKED']);

export function newCmdAuthorize(parent: Command, ctx: Context, run: Run<AuthorizeOptions> = authorizeRun): Command {
  const cmd = parent
    .command('authorize')
    .argument('<consent-id>', 'consent id')
    .description(
      'start the authorization of a consent (POST /connectivity/v2/consents/{consentId}/authorizations, user token, consents; Beta)',
    )
    .option('--app-uri <uri>', 'where the bank sends the user back in an app (appUri)')
    .option('--callback-uri <uri>', 'where the bank sends the user back (callbackUri)')
    .option('--idempotency-key <key>', 'the Idempotency-Key to send (default: a new random one)')
    .option('--wait', 'follow the authorization until it succeeds or fails (exit 9 when it fails)')
    // --wait-timeout as every waiting command spells it (a --timeout here hid the per-request one)
    .option('--wait-timeout <seconds>', 'with --wait: give up after this long', '600')
    .action(
      async (
        id: string,
        f: { appUri?: string; callbackUri?: string; idempotencyKey?: string; wait?: boolean; waitTimeout: string },
      ) =>
        run(ctx, {
          id,
          appUri: f.appUri,
          callbackUri: f.callbackUri,
          idempotencyKey: f.idempotencyKey,
          wait: Boolean(f.wait),
          timeoutSeconds: parseIntArg(f.waitTimeout, '--wait-timeout', { min: 1, max: 86_400 })!,
        }),
    );
  return examples(cmd, [
    'bankctl consents v2 authorize $CONSENT_ID --user $USER_ID --callback-uri https://example.com/callback',
    'bankctl consents v2 authorize $CONSENT_ID --user $USER_ID --wait',
  ]);
}

export async function authorizeRun(ctx: Context, o: AuthorizeOptions): Promise<void> {
  const api = await ctx.api();
  const body: { appUri?: string; callbackUri?: string } = {};
  if (o.appUri) body.appUri = o.appUri;
  if (o.callbackUri) body.callbackUri = o.callbackUri;
  let a = await startAuthorization(api, o.id, body, o.idempotencyKey);
  if (o.wait) {
    const deadline = ctx.clock.now() + o.timeoutSeconds * 1000;
    let said = '';
    while (!FINAL.has(String(a.state))) {
      const uri = (a.supplementalInformation as { redirectUri?: unknown } | undefined)?.redirectUri;
      if (a.state === 'AWAITING_INPUT' && typeof uri === 'string' && uri !== said) {
        // one line: a line break in the bank's URI would draw a line of bankctl's own
        ctx.notice(`log in at the bank: ${singleLine(uri)}`);
        said = uri;
      }
      if (ctx.clock.now() >= deadline)
        throw new FlowFailedError(
          `authorization ${String(a.id)} is still ${String(a.state)} after ${o.timeoutSeconds}s`,
        );
      await new Promise((r) => setTimeout(r, 250));
      a = await getAuthorization(api, o.id, String(a.id));
    }
  }
  await renderOne(ctx, a, AUTHORIZATION_VIEW);
  if (o.wait && a.state !== 'SUCCEEDED') {
    const msg = (a.detailedError as { displayMessage?: unknown } | undefined)?.displayMessage;
    throw new FlowFailedError(
      `authorization ${String(a.id)} ended ${singleLine(String(a.state))}${typeof msg === 'string' ? `: ${singleLine(msg)}` : ''}`,
    );
  }
}
