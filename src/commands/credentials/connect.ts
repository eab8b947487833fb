import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { canPrompt } from '../../io.js';
import { isMarket, MARKETS } from '../../api/markets.js';
import { ApiError, ConflictError, UsageError } from '../../errors.js';
import type { Provider } from '../../api/providers.js';
import type { Prompter } from '../../prompts/prompter.js';
import { collect, examples } from '../util.js';
import { addWalkFlags, CREDENTIALS_COLUMNS, keyValues, parseItems, walkOptions, type WalkFlags } from './shared.js';

interface ConnectOpts extends WalkFlags {
  provider?: string;
  market?: string;
  includeTest?: boolean;
  field?: string[];
  optIn?: boolean;
  items?: string[];
  appUri?: string;
}

export function registerCredentialsConnect(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('connect')
    .description(
      'connect a bank: create credentials and walk their status machine to a final status, answering what the bank asks',
    )
    .option('--provider <name>', 'provider name (on a terminal, a searchable picker when omitted)')
    .option('--market <code>', 'market of the provider picker')
    .option('--include-test', 'offer test providers in the picker')
    .option(
      '--field <name=value>',
      "a field of the provider's credentials, e.g. username=test-user (repeatable; --answers FILE may hold them too)",
      collect,
    )
    .option('--opt-in', 'choose the accounts to share (account opt-in)')
    .option('--items <items>', 'data to refresh, comma-separated (CHECKING_ACCOUNTS, ...; all when omitted)', collect)
    .option('--app-uri <url>', 'where the bank sends the user back after a redirect or app login (appUri)');
  addWalkFlags(cmd).action(async (o: ConnectOpts) => {
    const fields = keyValues(o.field, '--field');
    const items = parseItems(o.items);
    const market = o.market?.toUpperCase();
    if (market && !isMarket(market))
      throw new UsageError(`--market: unknown market "${o.market}"`, { hint: `one of ${MARKETS.join(', ')}` });
    const interactive = canPrompt(ctx.io);
    const settings = await ctx.settings();
    if (!(await ctx.userRef()) && !settings.value('token') && !settings.value('basic')) {
      // fail before any question is asked: credentials belong to a user
      throw new UsageError('credentials connect acts for a user', {
        hint: 'pass --user ID (or --external-user ID), set BANKCTL_USER, or give a user token with --token',
      });
    }
    const api = await ctx.api();
    const { getProvider, listProviders } = await import('../../api/providers.js');
    let provider: Provider;
    if (o.provider) {
      provider = await getProvider(api, o.provider);
    } else if (interactive) {
      provider = await pickProvider(ctx, await ctx.prompter(), market, Boolean(o.includeTest), listProviders);
    } else {
      throw new UsageError('--provider is required when there is no terminal to pick one on', {
        hint: 'list them with `bankctl providers list --market SE --include-test`',
      });
    }
    // walk options before anything is created, so a bad flag costs nothing
    const prepared = await walkOptions(ctx, '', o);
    const prompter = interactive ? await ctx.prompter() : undefined;
    const { collectAnswers } = await import('../../flows/connect.js');
    const providerFields = (provider.fields ?? []).map((f) => ({
      ...f,
      value: undefined,
      immutable: false,
      checkbox: false,
    }));
    for (const f of providerFields) {
      if ((f.masked || f.sensitive) && fields[f.name] !== undefined && !ctx.quiet) {
        ctx.warn(
          `--field ${f.name} on the command line is visible to other users in the process list; leave it out to be asked, or put it in the --answers file`,
        );
      }
    }
    // the --answers file may hold the provider's fields too, which keeps secrets out of argv
    const fromFile = Object.fromEntries(
      providerFields
        .filter((f) => prepared.answers[f.name] !== undefined)
        .map((f) => [f.name, prepared.answers[f.name]!]),
    );
    const filled = await collectAnswers(
      ctx,
      providerFields,
      { ...fromFile, ...fields },
      prompter,
      undefined,
      '--field',
    );
    for (const [k, v] of Object.entries(fields)) if (filled[k] === undefined) filled[k] = v;
    const { createCredentials } = await import('../../api/credentials.js');
    let created;
    try {
      created = await createCredentials(
        api,
        { providerName: provider.name, fields: filled, ...(o.appUri ? { appUri: o.appUri } : {}) },
        { items, optIn: o.optIn },
      );
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        const id = (err.body as { id?: unknown } | undefined)?.id;
        throw new ConflictError(err.message, {
          hint:
            typeof id === 'string'
              ? `those credentials exist already: \`bankctl credentials refresh ${id} --wait\``
              : 'list them with `bankctl credentials list`',
        });
      }
      throw err;
    }
    ctx.notice(`created credentials ${created.id} for ${provider.name}`);
    const { walkCredentials } = await import('../../flows/connect.js');
    const final = await walkCredentials(ctx, { ...prepared, id: created.id, initial: created });
    const { render } = await import('../../output/render.js');
    await render(ctx, final, { columns: CREDENTIALS_COLUMNS });
  });
  examples(cmd, [
    'bankctl credentials connect --provider se-test-password --field username=test-user --field password=test-password',
    'bankctl credentials connect --provider se-test-other-multi-supplemental --field username=test-user --answer code1=1234 --answer code2=5678',
    'bankctl credentials connect --provider se-test-other-eid-successful --field username=test-user --return-url https://example.com/back',
    'bankctl credentials connect --provider se-test-other-password --field username=test-user --field password=test-password --opt-in --answers answers.json',
    'bankctl credentials connect --market SE --include-test        # pick a provider on a terminal',
  ]);
}

async function pickProvider(
  ctx: Context,
  prompter: Prompter,
  market: string | undefined,
  includeTest: boolean,
  listProviders: typeof import('../../api/providers.js').listProviders,
): Promise<Provider> {
  const m =
    market ??
    (await prompter.select({
      message: 'Market',
      choices: ['SE', ...MARKETS.filter((x) => x !== 'SE')].map((x) => ({ name: x, value: x })),
    }));
  const all = await listProviders(await ctx.api(), { market: m, includeTestProviders: includeTest });
  if (all.length === 0)
    throw new UsageError(`no providers in market ${m}${includeTest ? '' : ' (add --include-test for test providers)'}`);
  const { stripControl } = await import('../../output/sanitize.js');
  const label = (p: Provider) =>
    stripControl(`${p.displayName ?? p.name} (${p.name})${p.type === 'TEST' ? ' [test]' : ''}`);
  const name = await prompter.search({
    message: `Provider in ${m} (type to search)`,
    source: (term) => {
      const t = (term ?? '').toLowerCase();
      return all
        .filter(
          (p) =>
            !t ||
            p.name.toLowerCase().includes(t) ||
            String(p.displayName ?? '')
              .toLowerCase()
              .includes(t),
        )
        .slice(0, 50)
        .map((p) => ({ name: label(p), value: p.name, description: String(p.displayDescription ?? '') }));
    },
  });
  return all.find((p) => p.name === name)!;
}
