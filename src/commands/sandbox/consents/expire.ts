// `sandbox consents expire ID`: the consent's session expiry moves to the past.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { render } from '../../../output/render.js';
import { examples, type Run } from '../../util.js';
import { sandboxApi } from '../shared.js';

export interface ExpireOptions {
  id: string;
}

export function newCmdExpire(parent: Command, ctx: Context, run: Run<ExpireOptions> = expireRun): Command {
  const cmd = parent
    .command('expire')
    .argument('<credentialsId>', "the consent's credentials id")
    .description(
      "move a consent's session expiry to the past (sandbox only): it and its credentials show SESSION_EXPIRED; " +
        '`consents update-link` or `credentials authenticate` renews it',
    )
    .action(async (id: string) => run(ctx, { id }));
  return examples(cmd, [
    'bankctl sandbox consents expire 6e68cc6287704273984567b3300c5822',
    'bankctl consents update-link 6e68cc6287704273984567b3300c5822 --user $USER_ID   # renew it',
  ]);
}

export async function expireRun(ctx: Context, o: ExpireOptions): Promise<void> {
  const api = await sandboxApi(ctx, '`sandbox consents expire`');
  const { expireConsent } = await import('../../../api/sandbox.js');
  const r = await expireConsent(api, o.id);
  ctx.notice(`consent ${r.credentialsId} expired; renew it with \`bankctl consents update-link ${r.credentialsId}\``);
  await render(
    ctx,
    { ...r, sessionExpiry: new Date(r.sessionExpiryDate).toISOString() },
    {
      vertical: false,
      columns: [
        { header: 'credentialsId', path: 'credentialsId' },
        { header: 'status', path: 'status' },
        { header: 'sessionExpiry', path: 'sessionExpiry' },
        { header: 'reason', path: 'detailedError.details.reason' },
      ],
    },
  );
}
