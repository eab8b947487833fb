// `consents v2 templates PROVIDER`: the consent templates of a provider, each a JSON schema of the
// parameters (GET /connectivity/v2/consent-templates/{providerId}, client token; Beta).
import type { Command } from 'commander';
import { completeOption } from '../../completion.js';
import type { Context } from '../../../context.js';
import { CONSENT_SUBTYPES, consentTemplates } from '../../../api/consents-v2.js';
import { UsageError } from '../../../errors.js';
import { render } from '../../../output/render.js';
import { examples, type Run } from '../../util.js';

export interface TemplatesOptions {
  provider: string;
  subtype?: string;
}

export function newCmdTemplates(parent: Command, ctx: Context, run: Run<TemplatesOptions> = templatesRun): Command {
  const cmd = parent
    .command('templates')
    .argument('<provider>', "the provider, by name (the reference's providerId, e.g. se-nordea-ob)")
    .description(
      "a provider's consent templates (GET /connectivity/v2/consent-templates/{providerId}, client token, consents:readonly; Beta); -o json has the schemas",
    )
    .option('--subtype <subtype>', `only this subtype: ${CONSENT_SUBTYPES.join(', ')}`)
    .action(async (provider: string, f: { subtype?: string }) => {
      const subtype = f.subtype?.toUpperCase();
      if (subtype && !(CONSENT_SUBTYPES as readonly string[]).includes(subtype))
        throw new UsageError(`--subtype must be one of ${CONSENT_SUBTYPES.join(', ')}, got "${f.subtype}"`);
      await run(ctx, { provider, subtype });
    });
  completeOption(cmd, '--subtype', () => CONSENT_SUBTYPES);
  return examples(cmd, [
    'bankctl consents v2 templates uk-ob-barclays',
    'bankctl consents v2 templates uk-ob-barclays --subtype VRP_SWEEPING -o json | jq ".[0].schema"',
  ]);
}

export async function templatesRun(ctx: Context, o: TemplatesOptions): Promise<void> {
  const t = await consentTemplates(await ctx.api(), o.provider, { type: 'MANDATE_PAYMENTS', subType: o.subtype });
  await render(ctx, t, {
    columns: [
      { header: 'type', path: 'type' },
      { header: 'subtype', path: 'subtype' },
      { header: 'version', path: 'version' },
      { header: 'deprecated', path: 'deprecated' },
      { header: 'supportedUntil', path: 'supportedUntil' },
      {
        header: 'required',
        path: 'schema.required',
        format: (v) => (Array.isArray(v) ? v.join(' ') : ''),
      },
    ],
  });
}
