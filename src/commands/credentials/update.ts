// `credentials update ID --field k=v`: change the fields of credentials, which starts a refresh.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { WalkOptions } from '../../flows/connect.js';
import { examples, type Run } from '../util.js';
import { canPrompt } from '../../io.js';
import {
  addFieldFlags,
  addWalkFlags,
  changeInterruptibly,
  CREDENTIALS_VIEW,
  fieldDefsFor,
  loadAnswers,
  readFields,
  walkOptions,
  warnSecretFields,
  type FieldFlags,
  type WalkFlags,
} from './shared.js';

export interface UpdateOptions {
  id: string;
  fields: Record<string, string>;
  appUri?: string;
  /** With --wait: how to walk the refresh to a final status. */
  walk?: WalkOptions;
}

type Flags = WalkFlags & FieldFlags & { appUri?: string; wait?: boolean };

export function newCmdUpdate(parent: Command, ctx: Context, run: Run<UpdateOptions> = updateRun): Command {
  const cmd = addFieldFlags(
    parent
      .command('update')
      .description('change the fields of credentials; this starts a refresh (PUT /api/v1/credentials/{id})')
      .argument('<id>', 'credentials id'),
    'a new field value (repeatable)',
  )
    .option('--app-uri <url>', 'a new appUri')
    .option('--wait', 'walk the refresh to a final status like `connect` does');
  addWalkFlags(cmd).action(async (id: string, o: Flags) => {
    const { fields, onCommandLine } = await readFields(ctx, o);
    if (Object.keys(fields).length === 0 && !o.appUri) {
      // the provider's fields from --answers FILE, then asked on a terminal (masked where the
      // provider says so): a new password never has to be on the command line
      const answers = await loadAnswers(ctx, o as { answers?: string });
      if (Object.keys(answers).length > 0 || canPrompt(ctx.io))
        Object.assign(fields, await askFields(ctx, id, answers));
      if (Object.keys(fields).length === 0)
        throw new UsageError('nothing to change: give --field name=value, --answers FILE, or --app-uri', {
          hint: "on a terminal, leave them out to be asked for the provider's fields",
        });
    }
    const walk = o.wait ? await walkOptions(ctx, id, o) : undefined;
    // the fields taken from --answers are not answers the walk's rounds left unused
    if (walk) walk.used = new Set(Object.keys(fields));
    const defs = await fieldDefsFor(ctx, onCommandLine, async () => {
      const { getCredentials } = await import('../../api/credentials.js');
      return (await getCredentials(await ctx.api(), id)).providerName;
    });
    await warnSecretFields(ctx, fields, onCommandLine, defs);
    await run(ctx, { id, fields, appUri: o.appUri, walk });
  });
  return examples(cmd, [
    'bankctl credentials update 6e68cc6287704273984567b3300c5822 --wait            # asks for the fields on a terminal',
    'bankctl credentials update 6e68cc6287704273984567b3300c5822 --answers fields.json --wait',
    'bankctl credentials update 6e68cc6287704273984567b3300c5822 --field-stdin password --wait < password.txt',
  ]);
}

export async function updateRun(ctx: Context, o: UpdateOptions): Promise<void> {
  const api = await ctx.api();
  const { updateCredentials } = await import('../../api/credentials.js');
  const { render } = await import('../../output/render.js');
  let result = await changeInterruptibly(ctx, o.id, `the fields of credentials ${o.id} were being changed`, (signal) =>
    updateCredentials(api, o.id, { fields: o.fields, ...(o.appUri ? { appUri: o.appUri } : {}) }, { signal }),
  );
  if (o.walk) {
    const { walkCredentials } = await import('../../flows/connect.js');
    // the PUT's answer may still show the last round's final status (the new round runs after it):
    // the walk's reference as refresh's read before its request is, waited past until it changes
    result = await walkCredentials(ctx, { ...o.walk, initial: result, before: result });
  }
  await render(ctx, result, CREDENTIALS_VIEW);
}

/** The provider's fields for these credentials: from the answers, the rest asked (masked ones masked). */
async function askFields(ctx: Context, id: string, answers: Record<string, string>): Promise<Record<string, string>> {
  const api = await ctx.api();
  const { getCredentials } = await import('../../api/credentials.js');
  const { findProvider } = await import('../../api/providers.js');
  const creds = await getCredentials(api, id);
  // by name, as the reference allows (GET /api/v1/providers/{x} takes a market, not a name)
  const provider = await findProvider(api, String(creds.providerName));
  const defs = (provider.fields ?? []).map((f) => ({ ...f, value: undefined, immutable: false, checkbox: false }));
  if (defs.length === 0) return {};
  const { collectAnswers } = await import('../../flows/connect.js');
  const prompter = canPrompt(ctx.io) ? await ctx.prompter() : undefined;
  // what the credentials hold already (the username) stays; what is masked (the password) is asked
  const current = (creds.fields ?? {}) as Record<string, unknown>;
  const kept = Object.fromEntries(
    defs
      .filter((f) => !f.masked && !f.sensitive && typeof current[f.name] === 'string')
      .map((f) => [f.name, String(current[f.name])]),
  );
  const given = {
    ...kept,
    ...Object.fromEntries(defs.filter((f) => answers[f.name] !== undefined).map((f) => [f.name, answers[f.name]!])),
  };
  return collectAnswers(ctx, defs, given, prompter, undefined, '--field');
}
