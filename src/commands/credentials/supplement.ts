// `credentials supplement ID`: answer the supplemental information the credentials wait for.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { canPrompt } from '../../io.js';
import { UsageError } from '../../errors.js';
import { collect, examples, type Run } from '../util.js';
import { changeInterruptibly, loadAnswers } from './shared.js';
import { stripControl } from '../../output/sanitize.js';

export interface SupplementOptions {
  id: string;
  /** From --answer and --answers; the rest is asked on a terminal. */
  given: Record<string, string>;
}

export function newCmdSupplement(parent: Command, ctx: Context, run: Run<SupplementOptions> = supplementRun): Command {
  const cmd = parent
    .command('supplement')
    .description(
      'answer the supplemental information the credentials wait for (POST /api/v1/credentials/{id}/supplemental-information)',
    )
    .argument('<id>', 'credentials id')
    .option('--answer <name=value>', 'answer for a field (repeatable)', collect)
    .option('--answers <file>', 'answers from a file: a JSON object, or name=value lines')
    .action(async (id: string, o: { answer?: string[]; answers?: string }) =>
      run(ctx, { id, given: await loadAnswers(ctx, o) }),
    );
  return examples(cmd, [
    'bankctl credentials supplement 6e68cc6287704273984567b3300c5822 --answer code1=1234',
    'bankctl credentials supplement 6e68cc6287704273984567b3300c5822 --answers answers.json',
  ]);
}

export async function supplementRun(ctx: Context, o: SupplementOptions): Promise<void> {
  const api = await ctx.api();
  const { getCredentials, supplementInformation } = await import('../../api/credentials.js');
  const { parseSupplemental } = await import('../../flows/supplemental.js');
  const c = await getCredentials(api, o.id);
  const sup =
    c.status === 'AWAITING_SUPPLEMENTAL_INFORMATION' ? parseSupplemental(c.supplementalInformation) : undefined;
  let information = o.given;
  if (sup?.kind === 'fields') {
    const { AnswerUse, collectAnswers, warnUnusedAnswers } = await import('../../flows/connect.js');
    const use = new AnswerUse();
    const prompter = canPrompt(ctx.io) ? await ctx.prompter() : undefined;
    information = await collectAnswers(ctx, sup.fields, o.given, prompter, undefined, '--answer', use);
    // a misspelt --answer was dropped without a word (and its field asked, or reported missing)
    warnUnusedAnswers(ctx, o.given, use);
  } else if (Object.keys(o.given).length === 0) {
    throw new UsageError(
      `credentials ${o.id} are in ${c.status}, not waiting for supplemental information; nothing to send`,
    );
  }
  await changeInterruptibly(ctx, o.id, `the answers for credentials ${o.id} were being sent`, (signal) =>
    supplementInformation(api, o.id, information, { signal }),
  );
  // a read-only field (a challenge shown) goes back as the service gave it, but is nobody's answer
  const shown = new Set(sup?.kind === 'fields' ? sup.fields.filter((f) => f.immutable).map((f) => f.name) : []);
  const answered = Object.keys(information).filter((k) => !shown.has(k));
  const names = answered.map((k) => stripControl(k)).join(', ');
  ctx.notice(
    `sent ${answered.length === 1 ? 'the answer' : `${answered.length} answers`}${names ? ` (${names})` : ''} to ${o.id}`,
  );
}
