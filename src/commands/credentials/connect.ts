// `credentials connect`: the whole flow of connecting a bank. Pick the provider (on a terminal when
// --provider is not given), fill its fields, create the credentials, and walk their status machine to
// a final status, answering what the bank asks.
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import { REFRESH_ITEMS } from '../../contract/vocabulary.js';
import type { Context } from '../../context.js';
import { canPrompt } from '../../io.js';
import { MARKETS } from '../../contract/markets.js';
import { ApiError, ConflictError, NAME_A_USER, UsageError } from '../../errors.js';
import type { Provider } from '../../api/providers.js';
import type { ApiClient } from '../../api/client.js';
import { noTerminalHint, type Prompter } from '../../prompts/prompter.js';
import type { WalkOptions } from '../../flows/connect.js';
import { collect, examples, marketFlag, type Run } from '../util.js';
import { nearest } from '../../config/names.js';
import { stripControl } from '../../output/sanitize.js';
import {
  addFieldFlags,
  addWalkFlags,
  CREDENTIALS_VIEW,
  createInterruptibly,
  parseItems,
  readFields,
  walkOptions,
  warnSecretFields,
  type FieldFlags,
  type WalkFlags,
} from './shared.js';

export interface ConnectOptions {
  provider?: string;
  market?: string;
  includeTest: boolean;
  fields: Record<string, string>;
  /** The --field names typed on the command line (a secret among them is warned about). */
  onCommandLine: string[];
  optIn?: boolean;
  items?: string[];
  appUri?: string;
  walk: WalkOptions;
}

interface Flags extends WalkFlags, FieldFlags {
  provider?: string;
  market?: string;
  includeTest?: boolean;
  optIn?: boolean;
  items?: string[];
  appUri?: string;
}

export function newCmdConnect(parent: Command, ctx: Context, run: Run<ConnectOptions> = connectRun): Command {
  const cmd = addFieldFlags(
    parent
      .command('connect')
      .description(
        'connect a bank: create credentials and walk their status machine to a final status, answering what the bank asks',
      )
      .option('--provider <name>', 'provider name (on a terminal, a searchable picker when omitted)')
      .option('--market <code>', 'market of the provider picker')
      .option('--include-test', 'offer test providers in the picker'),
    "a field of the provider's credentials, e.g. username=test-user (repeatable; --answers FILE may hold them too)",
  )
    .option('--opt-in', 'choose the accounts to share (account opt-in)')
    .option('--items <items>', 'data to refresh, comma-separated (CHECKING_ACCOUNTS, ...; all when omitted)', collect)
    .option('--app-uri <url>', 'where the bank sends the user back after a redirect or app login (appUri)');
  addWalkFlags(cmd).action(async (o: Flags) => run(ctx, await connectFromFlags(ctx, o)));
  completeOption(cmd, '--items', () => REFRESH_ITEMS);
  return examples(cmd, [
    'bankctl credentials connect --provider se-test-password --field username=test-user --field-stdin password < password.txt',
    'bankctl credentials connect --provider se-test-other-multi-supplemental --field username=test-user --answer code1=1234 --answer code2=5678',
    'bankctl credentials connect --provider se-test-other-eid-successful --field username=test-user --return-url https://example.com/back',
    "bankctl credentials connect --provider se-test-other-password --field username=test-user --field-stdin password --opt-in --answer '*=true' < password.txt   # share every account",
    'bankctl credentials connect --provider se-test-other-multi-supplemental --field username=test-user --answers answers.json   # answers.json: {"code1": "1234", "code2": "5678"}',
    'bankctl credentials connect --market SE --include-test        # pick a provider on a terminal',
  ]);
}

async function connectFromFlags(ctx: Context, o: Flags): Promise<ConnectOptions> {
  const { fields, onCommandLine } = await readFields(ctx, o);
  const items = parseItems(o.items);
  const market = marketFlag(o.market);
  const settings = await ctx.settings();
  if (!(await ctx.userRef()) && !settings.value('token') && !settings.value('basic')) {
    // fail before any question is asked: credentials belong to a user
    throw new UsageError('credentials connect acts for a user', {
      hint: `${NAME_A_USER}, or give a user token with --token`,
    });
  }
  if (!o.provider && !canPrompt(ctx.io)) {
    const list = '`bankctl providers list --market SE --include-test`';
    throw new UsageError('--provider is required when there is no terminal to pick one on', {
      hint: noTerminalHint(ctx.io, `pass --provider NAME, which ${list} lists`, `list them with ${list}`),
    });
  }
  return {
    provider: o.provider,
    market,
    includeTest: Boolean(o.includeTest),
    fields,
    onCommandLine,
    optIn: o.optIn,
    items,
    appUri: o.appUri,
    // walk options before anything is created, so a bad flag costs nothing
    walk: await walkOptions(ctx, '', o),
  };
}

export async function connectRun(ctx: Context, o: ConnectOptions): Promise<void> {
  const api = await ctx.api();
  const prompter = canPrompt(ctx.io) ? await ctx.prompter() : undefined;
  const { findProvider, listProviders } = await import('../../api/providers.js');
  const provider = o.provider
    ? await findProvider(api, o.provider, { market: o.market })
    : await pickProvider(ctx, prompter!, o.market, o.includeTest, listProviders);
  // the provider's name is public: a password that is part of it does not blank it out of messages
  (await ctx.http()).redactor.keep(provider.name);
  const filled = await providerAnswers(ctx, provider, o, prompter);
  const created = await create(ctx, api, provider, filled, o);
  ctx.notice(`created credentials ${created.id} for ${provider.name}`);
  const { walkCredentials } = await import('../../flows/connect.js');
  const final = await walkCredentials(ctx, { ...o.walk, id: created.id, initial: created });
  const { render } = await import('../../output/render.js');
  await render(ctx, final, CREDENTIALS_VIEW);
}

/** The provider's fields: --field, then the --answers file, then questions on a terminal. */
async function providerAnswers(
  ctx: Context,
  provider: Provider,
  o: ConnectOptions,
  prompter: Prompter | undefined,
): Promise<Record<string, string>> {
  refuseUnknownFields(provider, o.fields);
  const providerFields = (provider.fields ?? []).map((f) => ({
    ...f,
    value: undefined,
    immutable: false,
    checkbox: false,
  }));
  await warnSecretFields(
    ctx,
    o.fields,
    o.onCommandLine,
    providerFields,
    ', leave it out to be asked, or put it in the --answers file',
  );
  // the --answers file may hold the provider's fields too, which keeps secrets out of argv
  const fromFile = Object.fromEntries(
    providerFields.filter((f) => o.walk.answers[f.name] !== undefined).map((f) => [f.name, o.walk.answers[f.name]!]),
  );
  // taken here, so not named as unused answers when the walk ends
  o.walk.used = new Set([...(o.walk.used ?? []), ...Object.keys(fromFile)]);
  const { collectAnswers } = await import('../../flows/connect.js');
  const filled = await collectAnswers(
    ctx,
    providerFields,
    { ...fromFile, ...o.fields },
    prompter,
    undefined,
    '--field',
  );
  for (const [k, v] of Object.entries(o.fields)) if (filled[k] === undefined) filled[k] = v;
  return filled;
}

/**
 * A --field (or --field-stdin) name the provider does not take: refused before anything is asked or
 * created, named with the nearest field it takes. It was sent along (the service answers 400 for it)
 * after the field it misspelt was asked for on a terminal, or reported missing without a word on the
 * name that was typed. A provider that lists no fields is left to the service.
 */
function refuseUnknownFields(provider: Provider, fields: Record<string, string>): void {
  const names = (provider.fields ?? []).map((f) => f.name);
  if (names.length === 0) return;
  const unknown = Object.keys(fields).filter((k) => !names.includes(k));
  if (unknown.length === 0) return;
  // the nearest of the fields not given yet: `--field usernme=x` next to a password means username
  const open = names.filter((n) => fields[n] === undefined);
  const what = unknown.map((u) => {
    const near = nearest(u, open.length > 0 ? open : names);
    return `"${stripControl(u).slice(0, 60)}"${near ? ` (did you mean ${near}?)` : ''}`;
  });
  throw new UsageError(`--field: provider ${provider.name} has no field ${what.join(', ')}`, {
    hint: `its fields: ${names.join(', ')}; \`bankctl providers get ${provider.name}\` describes them`,
  });
}

/**
 * Creates the credentials; a 409 names the existing ones and how to refresh them instead. Ctrl-C
 * ends the request at once, and says the credentials may exist already (the service may have made
 * them before the answer was cut off), and where to find them.
 */
async function create(
  ctx: Context,
  api: ApiClient,
  provider: Provider,
  fields: Record<string, string>,
  o: ConnectOptions,
) {
  const uf = ctx.userFlag();
  const { createCredentials } = await import('../../api/credentials.js');
  try {
    return await createInterruptibly(ctx, provider.name, (signal) =>
      createCredentials(
        api,
        { providerName: provider.name, fields, ...(o.appUri ? { appUri: o.appUri } : {}) },
        { items: o.items, optIn: o.optIn, signal },
      ),
    );
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) {
      const id = (err.body as { id?: unknown } | undefined)?.id;
      let status: string | undefined;
      if (typeof id === 'string') {
        try {
          const { getCredentials } = await import('../../api/credentials.js');
          status = String((await getCredentials(api, id)).status);
        } catch {
          status = undefined;
        }
      }
      throw new ConflictError(err.message, {
        hint:
          typeof id === 'string' ? conflictHint(id, status, uf) : `list them with \`bankctl credentials list${uf}\``,
      });
    }
    throw err;
  }
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
  // on the sandbox the test providers are offered first (they are what completes there)
  const { isSandbox } = await import('../../api/sandbox.js');
  const onSandbox = await isSandbox(await ctx.api());
  includeTest ||= onSandbox;
  const listed = await listProviders(await ctx.api(), { market: m, includeTestProviders: includeTest });
  const all = onSandbox
    ? [...listed.filter((p) => p.type === 'TEST'), ...listed.filter((p) => p.type !== 'TEST')]
    : listed;
  if (all.length === 0)
    throw new UsageError(`no providers in market ${m}${includeTest ? '' : ' (add --include-test for test providers)'}`);
  const { singleLine } = await import('../../output/sanitize.js');
  const label = (p: Provider) =>
    singleLine(`${p.displayName ?? p.name} (${p.name})${p.type === 'TEST' ? ' [test]' : ''}`);
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

/** A second connect to the same bank: the next step for the existing credentials' status. */
export function conflictHint(id: string, status: string | undefined, uf = ''): string {
  const were = `those credentials exist already${status ? ` (${status})` : ''}`;
  switch (status) {
    case 'AWAITING_SUPPLEMENTAL_INFORMATION':
      return `${were}: answer the bank with \`bankctl credentials supplement${uf} ${id} --answer NAME=VALUE\``;
    case 'AWAITING_MOBILE_BANKID_AUTHENTICATION':
    case 'AWAITING_MOBILE_EID_AUTHENTICATION':
    case 'AWAITING_THIRD_PARTY_APP_AUTHENTICATION':
    case 'CREATED':
    case 'AUTHENTICATING':
    case 'UPDATING':
      return `${were}: still in progress, follow them with \`bankctl credentials watch${uf} ${id}\``;
    case 'AUTHENTICATION_ERROR':
      return `${were}: give new fields with \`bankctl credentials update${uf} ${id} --field NAME=VALUE --wait\``;
    case 'PERMANENT_ERROR':
      return `${were}: they cannot be used again (the service disabled the provider); remove them with \`bankctl credentials delete${uf} ${id}\``;
    case 'SESSION_EXPIRED':
    case 'TEMPORARY_ERROR':
      return `${were}: authenticate again with \`bankctl credentials authenticate${uf} ${id}\``;
    default:
      return `${were}: \`bankctl credentials refresh${uf} ${id} --wait\` fetches new data`;
  }
}
