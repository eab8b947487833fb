// `credentials create --provider P --field k=v`: create credentials and start their refresh, no wait.
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import { REFRESH_ITEMS } from '../../contract/vocabulary.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { collect, examples, type Run } from '../util.js';
import {
  addFieldFlags,
  CREDENTIALS_VIEW,
  createInterruptibly,
  fieldDefsFor,
  parseItems,
  readFields,
  warnSecretFields,
  type FieldFlags,
} from './shared.js';

export interface CreateOptions {
  provider: string;
  fields: Record<string, string>;
  items?: string[];
  optIn?: boolean;
  appUri?: string;
  refresh: boolean;
}

interface Flags extends FieldFlags {
  provider: string;
  items?: string[];
  optIn?: boolean;
  appUri?: string;
  refresh: boolean;
}

export function newCmdCreate(parent: Command, ctx: Context, run: Run<CreateOptions> = createRun): Command {
  const cmd = addFieldFlags(
    parent
      .command('create')
      .description(
        'create credentials and start their refresh, without waiting (POST /api/v1/credentials); see `credentials connect` for the whole flow',
      )
      .requiredOption('--provider <name>', 'provider name'),
    "a field of the provider's credentials (repeatable)",
  )
    .option('--items <items>', 'data to refresh, comma-separated', collect)
    .option('--opt-in', 'ask for account opt-in first')
    .option('--app-uri <url>', 'appUri: where the user returns after a redirect or app login')
    .option('--no-refresh', 'create without starting a refresh (triggerRefresh=false)')
    .action(async (o: Flags) => {
      const { fields, onCommandLine } = await readFields(ctx, o);
      if (Object.keys(fields).length === 0)
        throw new UsageError('give the credentials fields with --field name=value', {
          hint: `see them with \`bankctl providers get ${o.provider}\``,
        });
      const items = parseItems(o.items);
      const defs = await fieldDefsFor(ctx, onCommandLine, async () => o.provider);
      await warnSecretFields(ctx, fields, onCommandLine, defs);
      await run(ctx, { provider: o.provider, fields, items, optIn: o.optIn, appUri: o.appUri, refresh: o.refresh });
    });
  completeOption(cmd, '--items', () => REFRESH_ITEMS);
  return examples(cmd, [
    'bankctl credentials create --provider se-test-password --field username=test-user --field-stdin password < password.txt',
    'ID=$(bankctl credentials create --provider se-test-other-eid-successful --field username=test-user -o json | jq -r .id)',
  ]);
}

export async function createRun(ctx: Context, o: CreateOptions): Promise<void> {
  const { createCredentials } = await import('../../api/credentials.js');
  const { render } = await import('../../output/render.js');
  // the provider's name is public: a password that is part of it does not blank it out of messages
  (await ctx.http()).redactor.keep(o.provider);
  const api = await ctx.api();
  // Ctrl-C during the request said only "interrupted", when the credentials may exist by then
  const created = await createInterruptibly(ctx, o.provider, (signal) =>
    createCredentials(
      api,
      {
        providerName: o.provider,
        fields: o.fields,
        ...(o.appUri ? { appUri: o.appUri } : {}),
        ...(o.refresh ? {} : { triggerRefresh: false }),
      },
      { items: o.items, optIn: o.optIn, signal },
    ),
  );
  await render(ctx, created, CREDENTIALS_VIEW);
}
