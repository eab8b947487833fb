import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { canPrompt } from '../../io.js';
import { UsageError } from '../../errors.js';
import { collect, examples } from '../util.js';
import { loadAnswers } from './shared.js';

export function registerCredentialsSupplement(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('supplement')
    .description(
      'answer the supplemental information the credentials wait for (POST /api/v1/credentials/{id}/supplemental-information)',
    )
    .argument('<id>', 'credentials id')
    .option('--answer <name=value>', 'answer for a field (repeatable)', collect)
    .option('--answers <file>', 'answers from a file: a JSON object, or name=value lines')
    .action(async (id: string, o: { answer?: string[]; answers?: string }) => {
      const given = await loadAnswers(ctx, o);
      const api = await ctx.api();
      const { getCredentials, supplementInformation } = await import('../../api/credentials.js');
      const { parseSupplemental } = await import('../../flows/supplemental.js');
      const c = await getCredentials(api, id);
      const sup =
        c.status === 'AWAITING_SUPPLEMENTAL_INFORMATION' ? parseSupplemental(c.supplementalInformation) : undefined;
      let information = given;
      if (sup?.kind === 'fields') {
        const { collectAnswers } = await import('../../flows/connect.js');
        information = await collectAnswers(
          ctx,
          sup.fields,
          given,
          canPrompt(ctx.io) ? await ctx.prompter() : undefined,
        );
      } else if (Object.keys(given).length === 0) {
        throw new UsageError(
          `credentials ${id} are in ${c.status}, not waiting for supplemental information; nothing to send`,
        );
      }
      await supplementInformation(api, id, information);
      ctx.notice(`sent ${Object.keys(information).length} answer(s) to ${id}`);
    });
  examples(cmd, [
    'bankctl credentials supplement 6e68cc6287704273984567b3300c5822 --answer code1=1234',
    'bankctl credentials supplement 6e68cc6287704273984567b3300c5822 --answers answers.json',
  ]);
}
