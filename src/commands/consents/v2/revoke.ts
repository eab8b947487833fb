// `consents v2 revoke ID`: revoke a consent (POST /connectivity/v2/consents/{consentId}:revoke, client
// token, consents; Beta): the consent is REVOKED, its revoking authorization REVOKING.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { revokeConsent } from '../../../api/consents-v2.js';
import { render } from '../../../output/render.js';
import { examples, type Run } from '../../util.js';
import { CONSENT_VIEW } from './shared.js';

export interface RevokeOptions {
  id: string;
  idempotencyKey?: string;
}

export function newCmdRevoke(parent: Command, ctx: Context, run: Run<RevokeOptions> = revokeRun): Command {
  const cmd = parent
    .command('revoke')
    .argument('<consent-id>', 'consent id')
    .description('revoke a consent (POST /connectivity/v2/consents/{consentId}:revoke, client token, consents; Beta)')
    .option('--idempotency-key <key>', 'the Idempotency-Key to send (default: a new random one)')
    .action(async (id: string, f: { idempotencyKey?: string }) => run(ctx, { id, idempotencyKey: f.idempotencyKey }));
  return examples(cmd, ['bankctl consents v2 revoke $CONSENT_ID', 'bankctl consents v2 revoke $CONSENT_ID -o json']);
}

export async function revokeRun(ctx: Context, o: RevokeOptions): Promise<void> {
  const r = await revokeConsent(await ctx.api(), o.id, o.idempotencyKey);
  if ((await ctx.outputFormat()) === 'json') return render(ctx, r);
  const consent = (r.consent ?? {}) as Record<string, unknown>;
  const authorization = (r.authorization ?? {}) as Record<string, unknown>;
  await render(
    ctx,
    { ...consent, revokingAuthorization: authorization.id, revoking: authorization.state },
    {
      columns: [
        ...CONSENT_VIEW.columns,
        { header: 'revokingAuthorization', path: 'revokingAuthorization' },
        { header: 'revoking', path: 'revoking' },
      ],
      declared: [...CONSENT_VIEW.declared, 'revokingAuthorization', 'revoking'],
    },
  );
}
