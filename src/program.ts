// createProgram(ctx): a fresh commander tree per call, so tests build their own.
import { Command, Help, Option } from 'commander';
import type { Context } from './context.js';
import { OUTPUT_FORMATS } from './context.js';
import type { IO } from './io.js';
import { VERSION } from './version.js';
import { commandPath, examples, nounExamples } from './commands/util.js';
import { checkedId, givenId } from './ids.js';
import { isSecretName } from './contract/secret-names.js';
import { termColumn } from './fast-help.js';

/** What a command may need from the program beyond the context (demo runs command lines in-process). */
export interface ProgramDeps {
  /** Runs a whole bankctl command line in this process (main.ts `run`); returns its exit code. */
  runCommandLine?: (argv: string[], io: IO) => Promise<number>;
}

/** Fills in a noun: its verbs (or, for a noun that is itself a command, its flags and action). */
export type Register = (noun: Command, ctx: Context, deps: ProgramDeps) => void;

interface Noun {
  name: string;
  /** The noun's one description: the root help and the noun's own help both show this. */
  description: string;
  /** Other names for the noun (`tx` for transactions), as gh users expect them. */
  aliases?: string[];
  /** Its group in the root help (gh's CORE COMMANDS, ADDITIONAL COMMANDS...). */
  group: string;
  load: () => Promise<Register>;
}

const CORE = 'Core commands:';
const FINANCE = 'Personal finance commands:';
const CONNECTOR = 'Connector and webhook commands:';
const TOOLS = 'Tools:';

export const NOUNS: Noun[] = [
  {
    name: 'auth',
    group: CORE,
    description: 'client credentials, tokens and authorization codes',
    load: async () => (await import('./commands/auth/index.js')).registerAuth,
  },
  {
    name: 'users',
    group: CORE,
    description: 'end users: create, get, update, delete, and their profile',
    load: async () => (await import('./commands/users/index.js')).registerUsers,
  },
  {
    name: 'providers',
    group: CORE,
    description: "financial institutions (providers) and the sandbox's test providers",
    load: async () => (await import('./commands/providers/index.js')).registerProviders,
  },
  {
    name: 'credentials',
    group: CORE,
    description: "a user's connections to banks: connect, follow and manage them",
    load: async () => (await import('./commands/credentials/index.js')).registerCredentials,
  },
  {
    name: 'accounts',
    group: CORE,
    description: "the user's accounts: list, get, update, balances, parties",
    load: async () => (await import('./commands/accounts/index.js')).registerAccounts,
  },
  {
    name: 'balance-refresh',
    group: CORE,
    description: "refresh an account's balance at its bank (5 per account per 2 hours)",
    load: async () => (await import('./commands/balance-refresh/index.js')).registerBalanceRefresh,
  },
  {
    name: 'transactions',
    group: CORE,
    aliases: ['tx'],
    description: "the user's transactions (v2), streamed page after page, and transaction reports",
    load: async () => (await import('./commands/transactions/index.js')).registerTransactions,
  },
  {
    name: 'consents',
    group: CORE,
    description: "the user's provider consents: list, delete, renew through the link service; v2 consents",
    load: async () => (await import('./commands/consents/index.js')).registerConsents,
  },
  {
    name: 'identities',
    group: FINANCE,
    description: 'identity data the banks hold on the user',
    load: async () => (await import('./commands/identities/index.js')).registerIdentities,
  },
  {
    name: 'investments',
    group: FINANCE,
    description: "the user's investments: portfolios, investment accounts and their holdings",
    load: async () => (await import('./commands/investments/index.js')).registerInvestments,
  },
  {
    name: 'loans',
    group: FINANCE,
    description: "the user's loans and mortgages, and their loan accounts",
    load: async () => (await import('./commands/loans/index.js')).registerLoans,
  },
  {
    name: 'categories',
    group: FINANCE,
    description: 'the category catalogue: a flat list with parent links',
    load: async () => (await import('./commands/categories/index.js')).registerCategories,
  },
  {
    name: 'budgets',
    group: FINANCE,
    description: 'one-off and recurring budgets: spent against target (user token)',
    load: async () => (await import('./commands/budgets/index.js')).registerBudgets,
  },
  {
    name: 'insights',
    group: FINANCE,
    description: "actionable insights from the user's data: active, then archived once acted on (user token)",
    load: async () => (await import('./commands/insights/index.js')).registerInsights,
  },
  {
    name: 'statistics',
    group: FINANCE,
    description: 'expenses, income, balances and left to spend per period (user token with statistics:read)',
    load: async () => (await import('./commands/statistics/index.js')).registerStatistics,
  },
  {
    name: 'calendar',
    group: FINANCE,
    description: 'monthly and salary-adjusted calendar periods',
    load: async () => (await import('./commands/calendar/index.js')).registerCalendar,
  },
  {
    name: 'search',
    group: FINANCE,
    description: "search the user's transactions (POST /api/v1/search)",
    load: async () => (await import('./commands/search.js')).registerSearch,
  },
  {
    name: 'transfers',
    group: FINANCE,
    description: "bank transfers and payments from the user's accounts (user token with transfer:execute)",
    load: async () => (await import('./commands/transfers/index.js')).registerTransfers,
  },
  {
    name: 'reports',
    group: FINANCE,
    description: 'account verification reports: temporary (1 hour), with a PDF rendering',
    load: async () => (await import('./commands/reports/index.js')).registerReports,
  },
  {
    name: 'connector',
    group: CONNECTOR,
    description:
      'push users, accounts and transactions into the service (connector API; Token <connector token> or a client token)',
    load: async () => (await import('./commands/connector/index.js')).registerConnector,
  },
  {
    name: 'webhooks',
    group: CONNECTOR,
    description: 'webhooks: v1 hooks and Events v2 endpoints, a local receiver, sandbox deliveries and resends',
    load: async () => (await import('./commands/webhooks/index.js')).registerWebhooks,
  },
  {
    name: 'config',
    group: TOOLS,
    description: 'profiles and settings (stored 0600 under BANKCTL_CONFIG_DIR)',
    load: async () => (await import('./commands/config/index.js')).registerConfig,
  },
  {
    name: 'api',
    group: TOOLS,
    description: 'the raw escape hatch: any request, authenticated like any other command',
    load: async () => (await import('./commands/api.js')).registerApi,
  },
  {
    name: 'version',
    group: TOOLS,
    description: "the client's version, and the server's (GET /version) when it is reachable",
    load: async () => (await import('./commands/version.js')).registerVersion,
  },
  {
    name: 'sandbox',
    group: TOOLS,
    description: 'the embedded local emulator of the service',
    load: async () => (await import('./commands/sandbox/index.js')).registerSandbox,
  },
  {
    name: 'smoke',
    group: TOOLS,
    description:
      'the end-to-end check suite for CI, against whatever base URL the profile names; test providers only, cleans up after itself',
    load: async () => (await import('./commands/smoke.js')).registerSmoke,
  },
  {
    name: 'demo',
    group: TOOLS,
    description:
      'a guided end-to-end walk on an embedded sandbox: users, a bank connection, accounts, transactions, consents and a connector push',
    load: async () => (await import('./commands/demo.js')).registerDemo,
  },
  {
    name: 'doctor',
    group: TOOLS,
    description:
      'check what stands between you and a working setup: config, reachability, TLS, proxy, clock, credentials, listener port',
    load: async () => (await import('./commands/doctor.js')).registerDoctor,
  },
  {
    name: 'completion',
    group: TOOLS,
    description: 'print the shell completion script for bash, zsh or fish',
    load: async () => (await import('./commands/completion.js')).registerCompletion,
  },
];

/**
 * The noun a command line invokes: the first word that is not a global option or its value
 * (`valued`: the global options that take one).
 */
export function invokedNoun(argv: string[], valued: Set<string>): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return undefined;
    if (a.startsWith('-')) {
      if (!a.includes('=') && valued.has(a)) i++;
      continue;
    }
    if (a === 'help') return argv.slice(i + 1).find((x) => !x.startsWith('-'));
    return a;
  }
  return undefined;
}

export async function createProgram(ctx: Context, argv: string[] = [], deps: ProgramDeps = {}): Promise<Command> {
  const program = rootCommand(ctx);
  program.configureOutput({
    outputError: (s, write) =>
      write(withUsagePointer(s.startsWith('error:') ? s : `error: ${s}`, switchGivenValue(program, argv))),
  });
  const valued = new Set(
    program.options
      .filter((o) => o.required || o.optional)
      .flatMap((o) => [o.long, o.short].filter((x): x is string => Boolean(x))),
  );
  const invoked = invokedNoun(argv, valued);
  const everything = invoked === 'completion' || invoked === '__complete';
  for (const n of NOUNS) {
    const noun = program.command(n.name).description(n.description).helpGroup(n.group);
    if (n.aliases) noun.aliases(n.aliases);
    if (everything || n.name === invoked || n.aliases?.includes(invoked ?? '')) {
      (await n.load())(noun, ctx, deps);
      addVerbAliases(noun);
      verbHelpCommands(noun);
      nounExamples(noun);
    }
  }
  addHelpCommand(program);
  suggestByPrefix(program);
  unknownOptionFirst(program);
  refuseHelpOfUnknown(program, argv);
  refuseVerbHelpOfUnknown(program, argv);
  if (invoked === '__complete') {
    const { registerComplete } = await import('./commands/complete.js');
    registerComplete(program, ctx);
  }

  examples(program, [
    'bankctl sandbox start --detach          # a local emulator of the service',
    'bankctl users create --market SE --locale sv_SE --use',
    'bankctl auth token --scope user:create',
    "bankctl api GET /api/v1/providers/SE -f includeTestProviders=true --jq '.providers[].name'",
  ]);
  program.addHelpText(
    'after',
    // two lines that fit 80 columns: one line of 150 was cut by the terminal mid-word
    '\nExit codes: 0 ok, 1 bug, 2 usage or 400, 3 auth, 4 not found, 5 conflict,\n' +
      '6 rate limited, 7 server error, 8 network, 9 flow failed, 130 interrupted.',
  );
  return program;
}

/** Where the right words are, for commander's usage errors that do not say (its suggestion does). */
const USAGE_POINTERS: Array<[RegExp, string]> = [
  [/^error: unknown command /, 'see `bankctl --help` for the commands, `bankctl NOUN --help` for the verbs of a noun'],
  [/^error: unknown option /, "see the command's --help for its options"],
  [/^error: (too many arguments|missing required argument)/, "see the command's --help for its arguments"],
];

/**
 * `accounts update ID --favored false`: a switch given a value, which commander reports as one
 * argument too many. The pointer for that error when the words hold such a pair: a boolean option
 * of the root, noun or verb they name, then true/false/yes/no/on/off.
 */
function switchGivenValue(program: Command, argv: readonly string[]): string | undefined {
  // the options of the commands the words name (root, noun, verb)
  const options: Command['options'][number][] = [...program.options];
  let cmd = program;
  for (const word of argv) {
    const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) continue;
    options.push(...next.options);
    cmd = next;
  }
  const isSwitch = (flag: string) => options.some((o) => o.long === flag && !o.required && !o.optional);
  for (let i = 0; i + 1 < argv.length; i++) {
    const flag = argv[i]!;
    if (!/^(true|false|yes|no|on|off)$/i.test(argv[i + 1]!) || !isSwitch(flag)) continue;
    const off = `--no-${flag.slice(2)}`;
    const negated = options.some((o) => o.long === off);
    return `${flag} is a switch and takes no value: write ${flag}${negated ? ` to set it, ${off} to clear it` : ' alone'}`;
  }
  return undefined;
}

/** commander's `.choices()` refusal: `option '-o, --output <format>' argument 'xml' is invalid. Allowed choices are ...` */
const CHOICE = /^error: option '([^']+)' argument '([^']*)' is invalid\. Allowed choices are (.+)\.(\n?)$/s;

/** commander's error with its pointer as the hint of the same line: an error is one line. */
function withUsagePointer(s: string, switchPointer?: string): string {
  // a value outside a closed list, worded as bankctl's own refusals are (the flag, what is allowed, what was given)
  const choice = CHOICE.exec(s);
  if (choice) return `error: ${longFlag(choice[1]!)} must be one of ${choice[3]}, got "${choice[2]}"${choice[4]}`;
  // commander puts its suggestion on a line of its own: it is the hint of the error's line
  if (s.includes('\n(Did you mean')) return s.replace('\n(Did you mean', ' (Did you mean');
  const pointer =
    (switchPointer && /^error: too many arguments/.test(s) ? switchPointer : undefined) ??
    USAGE_POINTERS.find(([re]) => re.test(s))?.[1];
  if (!pointer || s.includes('(Did you mean')) return s;
  const nl = s.indexOf('\n');
  return nl < 0 ? `${s} (${pointer})` : `${s.slice(0, nl)} (${pointer})${s.slice(nl)}`;
}

/**
 * The root help as gh shows it: the commands by group first, then the global options (a newcomer's
 * first screen is what bankctl does, not 30 flags). Sections are separated by blank lines.
 */
function commandsFirst(text: string): string {
  const sections = text.replace(/\n+$/, '').split('\n\n');
  const options = sections.findIndex((sec) => sec.startsWith('Options:\n'));
  if (options < 0) return text;
  const [moved] = sections.splice(options, 1);
  sections.push(moved!.replace(/^Options:/, 'Global options:'));
  return `${sections.join('\n\n')}\n`;
}

/**
 * A noun's help (`bankctl auth --help`): its verbs right after the description, then its options
 * and the inherited ones, as gh orders it. After the ~45 lines of inherited options, the verbs were
 * below the first screen of a terminal.
 */
function verbsFirst(text: string): string {
  const sections = text.replace(/\n+$/, '').split('\n\n');
  const commands = sections.findIndex((sec) => sec.startsWith('Commands:\n'));
  const options = sections.findIndex((sec) => sec.startsWith('Options:\n'));
  if (commands < 0 || options < 0 || commands < options) return text;
  const [moved] = sections.splice(commands, 1);
  sections.splice(options, 0, moved!);
  return `${sections.join('\n\n')}\n`;
}

/**
 * A verb's help lists its own options, then the global ones that apply (gh's INHERITED FLAGS); the
 * root's shows its commands first (commandsFirst), a noun's its verbs (verbsFirst).
 */
const HELP_CONFIG: Partial<Help> = {
  showGlobalOptions: true,
  formatHelp(cmd: Command, helper: Help): string {
    const text = Help.prototype.formatHelp.call(this, cmd, helper);
    return cmd.parent ? verbsFirst(text) : commandsFirst(text);
  },
  // the term column of src/fast-help.ts's termColumn (see there), so both paths print the same help
  formatItem(term: string, termWidth: number, description: string, helper: Help): string {
    const column = termColumn(termWidth, this.helpWidth ?? 80);
    if (description && column < termWidth && helper.displayWidth(term) > column)
      return `  ${term}\n${Help.prototype.formatItem.call(this, '', column, description, helper)}`;
    return Help.prototype.formatItem.call(this, term, column, description, helper);
  },
  formatItemList(heading: string, items: string[], helper: Help): string[] {
    return Help.prototype.formatItemList.call(
      this,
      heading === 'Global Options:' ? 'Inherited options:' : heading,
      items,
      helper,
    );
  },
};

/** The root command with the global options and their checks, and no nouns (tests add one verb to it). */
export function rootCommand(ctx: Context): Command {
  const program = optionUsageWording(new Command('bankctl'));
  program
    .description('Command-line tool for the financial-data aggregation service, with an embedded sandbox.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureHelp(HELP_CONFIG)
    .configureOutput({
      writeOut: (s) => ctx.io.stdout.write(s),
      writeErr: (s) => ctx.io.stderr.write(s),
      outputError: (s, write) => write(withUsagePointer(s.startsWith('error:') ? s : `error: ${s}`)),
    })
    .option('--profile <name>', 'saved profile to use (env BANKCTL_PROFILE)')
    .option('--base-url <url>', 'API base URL (env BANKCTL_BASE_URL; default http://127.0.0.1:8787, the local sandbox)')
    .option('--link-url <url>', 'hosted link flow base URL (env BANKCTL_LINK_URL; default <base-url>/link)')
    .addOption(
      new Option(
        '-o, --output <format>',
        'output format (env BANKCTL_OUTPUT; default table on a TTY, json otherwise)',
      ).choices([...OUTPUT_FORMATS]),
    )
    .option(
      '--fields [paths]',
      'only these comma-separated dotted paths, in every format (alone or "help": list the paths)',
      // repeated, the paths add up (as --status does), rather than the last one winning unseen
      (value: string, previous: unknown) => (typeof previous === 'string' ? `${previous},${value}` : value),
    )
    .option('--jq <expr>', 'filter json output with a jq expression (implies -o json; per line with -o ndjson)')
    .option('--wide', 'tables show full values: nothing shortened to fit the terminal')
    .option('-y, --yes', 'confirm destructive commands and changes to a protected profile without asking')
    .option('--no-pager', 'never page long tables (pager: BANKCTL_PAGER, PAGER, default "less -FRX")')
    .option('-v, --verbose', 'HTTP trace on stderr, secrets redacted (env BANKCTL_DEBUG=1)')
    .option('-q, --quiet', 'no progress, spinners or notices on stderr (the line that a list has more pages stays)')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('--timeout <seconds>', 'per-request timeout in seconds (env BANKCTL_TIMEOUT; default 30)')
    .option(
      '--retries <n>',
      'retries of 429, 5xx on idempotent requests and network errors (env BANKCTL_RETRIES; default 3)',
    )
    .option(
      '--max-response-size <size>',
      'largest response body read, e.g. 64MiB (env BANKCTL_MAX_RESPONSE_SIZE; default 64MiB); a larger one is exit 7',
    )
    .option('--client-id <id>', 'OAuth client id (env BANKCTL_CLIENT_ID)')
    .option('--client-secret <secret>', 'OAuth client secret (env BANKCTL_CLIENT_SECRET; prefer --client-secret-stdin)')
    .option(
      '--client-secret-stdin',
      'read the client secret from the first line of standard input (on a terminal: asked for, masked)',
    )
    .option('--token <token>', 'a ready bearer token (env BANKCTL_TOKEN)')
    .option('--connector-token <token>', 'connector token, sent as "Token <token>" (env BANKCTL_CONNECTOR_TOKEN)')
    .option('--user <id>', 'acting end user by user id (env BANKCTL_USER)')
    .option('--external-user <id>', 'acting end user by external user id')
    .option('--basic <user:token>', 'HTTP Basic for connector-pushed users (env BANKCTL_BASIC)')
    .option('--ca-file <file>', 'extra trusted CA certificates, PEM (env BANKCTL_CA_FILE)')
    .option('--pin <sha256>', 'certificate pin: base64 SHA-256 of the server SubjectPublicKeyInfo (env BANKCTL_PIN)');

  program.hook('preAction', async (_this, actionCommand) => {
    ctx.globals = actionCommand.optsWithGlobals();
    // a positional value (an id, a path) or a --user with a control character: a user's slip, named
    // before anything is sent (the usual one is the CR of a csv line). Every reader of --user (userRef,
    // the connector's externalUser, sandbox logs) sees it checked; a user from the environment or the
    // profile is checked in userRef.
    const secretValue = setsSecret(actionCommand);
    actionCommand.registeredArguments.forEach((arg, i) => {
      const v: unknown = actionCommand.processedArgs[i];
      for (const one of Array.isArray(v) ? v : [v]) {
        if (typeof one !== 'string') continue;
        // an empty id is never one; other values (a config value, a path) may be empty on purpose
        if (/id$/i.test(arg.name())) givenId(arg.name(), one);
        // a secret (`config set KEY VALUE`'s value, `auth exchange CODE`) is never shown in the error
        else checkedId(arg.name(), one, (secretValue && i > 0) || isSecretName(arg.name()));
      }
    });
    if (typeof ctx.globals.user === 'string') givenId('user id', ctx.globals.user, '--user');
    if (typeof ctx.globals.externalUser === 'string')
      givenId('external user id', ctx.globals.externalUser, '--external-user');
    // a protected profile: data-changing verbs (and `api` with a method other than GET) ask first
    const verb = actionCommand.name();
    const apiWrite = verb === 'api' && !/^(GET|HEAD)$/i.test(String(actionCommand.args[0] ?? 'GET'));
    if (actionCommand.parent !== program || apiWrite) {
      const { MUTATING_VERBS, confirmProtected } = await import('./prompts/confirm.js');
      if (MUTATING_VERBS.has(verb) || apiWrite) {
        const what = `bankctl ${actionCommand.parent?.name()} ${verb}`.replace('bankctl bankctl ', 'bankctl ');
        // what can be checked of the output options is checked before the change is made
        const { checkOutputBeforeChange } = await import('./output/render.js');
        await checkOutputBeforeChange(ctx, what);
        ctx.changing = what;
        await confirmProtected(ctx, what);
      }
    }
    if (ctx.globals.clientSecretStdin) await ctx.readSecretFromStdin();
    for (const [flag, key] of [
      ['--client-secret', 'clientSecret'],
      ['--token', 'token'],
      ['--connector-token', 'connectorToken'],
      ['--basic', 'basic'],
    ] as const) {
      if (ctx.globals[key] && !ctx.quiet) {
        ctx.warn(
          `${flag} on the command line is visible to other users in the process list; use ${flag === '--client-secret' ? '--client-secret-stdin' : 'an environment variable or the profile'} instead`,
        );
      }
    }
  });

  return program;
}

/**
 * An unknown command that begins the names of some: those are the suggestion (`budgets create`:
 * create-one-off or create-recurring), where commander's nearest spelling would be `update`.
 */
function suggestByPrefix(cmd: Command): void {
  if (cmd.commands.length === 0) return;
  cmd.on('command:*', (operands: string[]) => unknownCommand(cmd, operands[0] ?? ''));
  for (const sub of cmd.commands) suggestByPrefix(sub);
}

/** commander's nearest spellings after its unknown-command line. */
const NEAR = /\n\(Did you mean (?:one of )?(.+)\?\)/;

/** The usage error for `word` among cmd's subcommands: the prefix suggestion, else commander's nearest spelling. */
function unknownCommand(cmd: Command, word: string): never {
  const verbs = cmd.commands.map((c) => c.name()).filter((n) => n !== 'help' && !n.startsWith('_'));
  const names = word.length < 2 ? [] : verbs.filter((n) => n.startsWith(word));
  if (names.length === 0) {
    // under a noun, an error without a nearest spelling names the noun's verbs (gh lists them too)
    const hint =
      cmd.parent && verbs.length > 0 ? `the commands of \`${commandPath(cmd)}\` are ${verbs.join(', ')}` : '';
    const { outputError } = cmd.configureOutput();
    cmd.configureOutput({
      outputError: (s, write) => {
        const near = NEAR.exec(s);
        if (!near) return hint ? write(`${s.trimEnd()} (${hint})\n`) : outputError!(s, write);
        // commander offers a command and its alias as two ("list, ls"): one command is one name
        const named = [...new Set(near[1]!.split(', ').map((w) => subcommand(cmd, w)?.name() ?? w))];
        const list = named.length === 1 ? named[0] : `one of ${named.join(', ')}`;
        return outputError!(s.replace(NEAR, `\n(Did you mean ${list}?)`), write);
      },
    });
    // commander's own error and nearest spelling (a method its typings leave out); it names args[0]
    const c = cmd as unknown as { args: string[]; unknownCommand(): void };
    c.args = [word];
    c.unknownCommand();
  }
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  return cmd.error(`error: unknown command '${word}' (Did you mean ${list}?)`, { code: 'commander.unknownCommand' });
}

/**
 * `users create --markt SE`: commander looks for missing required options before unknown ones, so
 * the misspelt flag was reported as "required option '--market <code>' not specified", which the
 * user believes they gave. The unknown option is the slip; a verb names it first (with commander's
 * nearest spelling), as it would have without a required option.
 */
function unknownOptionFirst(cmd: Command): void {
  for (const sub of cmd.commands) unknownOptionFirst(sub);
  if (cmd.commands.length > 0) return;
  // commander's own steps (methods its typings leave out): parseOptions hands back the first
  // unknown option and what follows it; the required options are checked next
  const c = cmd as unknown as {
    parseOptions(args: string[]): { operands: string[]; unknown: string[] };
    _checkForMissingMandatoryOptions(): void;
    unknownOption(flag: string): void;
  };
  // a commander that renamed these private steps keeps its own order rather than fail to start
  if (typeof c.parseOptions !== 'function' || typeof c._checkForMissingMandatoryOptions !== 'function') return;
  let unknown: string[] = [];
  const parseOptions = c.parseOptions.bind(c);
  c.parseOptions = (args) => {
    const parsed = parseOptions(args);
    unknown = parsed.unknown;
    return parsed;
  };
  const checkRequired = c._checkForMissingMandatoryOptions.bind(c);
  c._checkForMissingMandatoryOptions = () => {
    if (unknown[0]?.startsWith('-')) c.unknownOption(unknown[0]);
    checkRequired();
  };
}

/** The name a flag is known by: its long form (`--output` of `-o, --output <format>`). */
function longFlag(flags: string): string {
  return /--[\w-]+/.exec(flags)?.[0] ?? flags.split(/[ ,]/)[0]!;
}

/** What an option takes, for an error about it: its closed list, else its description. */
function allowedValues(o: Option): string {
  return o.argChoices?.length ? `one of ${o.argChoices.join(', ')}` : o.description;
}

/**
 * A required option left out, or an option given without its value: one line naming the flag and
 * what it takes, as bankctl's own refusals are, instead of commander's "required option '--market
 * <code>' not specified" and "option '--market <code>' argument missing".
 */
function optionUsageWording(cmd: Command): Command {
  // every command made under this one is worded so too (nouns, verbs, nested nouns)
  cmd.createCommand = (name?: string) => optionUsageWording(new Command(name));
  // commander's own steps (methods its typings leave out), each handed the option it is about
  const c = cmd as unknown as {
    missingMandatoryOptionValue?: (o: Option) => void;
    optionMissingArgument?: (o: Option) => void;
  };
  if (typeof c.missingMandatoryOptionValue === 'function')
    c.missingMandatoryOptionValue = (o) =>
      cmd.error(`error: ${longFlag(o.flags)} is required (${allowedValues(o)})`, {
        code: 'commander.missingMandatoryOptionValue',
      });
  if (typeof c.optionMissingArgument === 'function')
    c.optionMissingArgument = (o) =>
      cmd.error(`error: ${longFlag(o.flags)} needs a value (${allowedValues(o)})`, {
        code: 'commander.optionMissingArgument',
      });
  return cmd;
}

/**
 * `bankctl users frob --help`: commander answers a help flag before it looks at the words, so a
 * misspelt verb printed the noun's help with exit 0 (a script's typo passed as success). The words
 * before the flag are walked here as commander will: an unknown one where a command expects its
 * subcommands is the same usage error as without --help.
 */
function refuseHelpOfUnknown(program: Command, argv: string[]): void {
  const words = beforeDashDash(argv);
  if (!words.includes('--help') && !words.includes('-h')) return;
  let cmd = program;
  // the noun's help command named last (`bankctl auth help --help`); before a verb it names that verb
  let helpWordLast = false;
  for (const { word: a } of operands(words, () => cmd)) {
    // a command with an action takes operands from here on (`help users frob`, `api GET /x`)
    if (cmd.commands.length === 0 || (cmd as unknown as { _actionHandler?: unknown })._actionHandler) return;
    const sub = subcommand(cmd, a);
    helpWordLast = !sub && isHelpOfHelp(cmd, a);
    if (helpWordLast) continue;
    if (!sub) unknownCommand(cmd, a);
    cmd = sub;
  }
  // its help, as `auth help help` shows it
  if (helpWordLast) helpOfHelp(cmd);
}

/** The words of a command line before a `--`. */
function beforeDashDash(argv: string[]): string[] {
  const end = argv.indexOf('--');
  return end < 0 ? argv : argv.slice(0, end);
}

/**
 * The words that are not options or option values, with their index, as commander reads them:
 * an option of the command reached so far (`at()`) that takes a value takes the next word too.
 */
function* operands(words: string[], at: () => Command): Generator<{ word: string; i: number }> {
  for (let i = 0; i < words.length; i++) {
    const a = words[i]!;
    if (a.startsWith('-')) {
      if (!a.includes('=') && takesValue(at(), a) && !(words[i + 1] ?? '-').startsWith('-')) i++;
      continue;
    }
    yield { word: a, i };
  }
}

/**
 * `bankctl auth help frob`: commander's help command of a noun printed the noun's help, exit 0; it is
 * the line `bankctl auth frob` gives, exit 2, as `bankctl help auth frob` is.
 */
function refuseVerbHelpOfUnknown(program: Command, argv: string[]): void {
  const words = beforeDashDash(argv);
  let cmd = program;
  for (const { word: a, i } of operands(words, () => cmd)) {
    // the root's `help` checks its own words
    if (cmd.commands.length === 0 || (cmd === program && a === 'help')) return;
    if (a === 'help' && !subcommand(cmd, a)) {
      const verb = words.slice(i + 1).find((w) => !w.startsWith('-'));
      if (verb !== undefined && !subcommand(cmd, verb) && !isHelpOfHelp(cmd, verb)) unknownCommand(cmd, verb);
      return;
    }
    const sub = subcommand(cmd, a);
    if (!sub) return;
    cmd = sub;
  }
}

/** cmd's subcommand by its name or an alias. */
function subcommand(cmd: Command, word: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

/** Whether `flag` is an option of cmd or of a command above it that takes a value. */
function takesValue(cmd: Command, flag: string): boolean {
  for (let c: Command | null = cmd; c; c = c.parent)
    for (const o of c.options) if (o.long === flag || o.short === flag) return o.required || o.optional;
  return false;
}

/** Verb aliases gh users type: `ls` for list, `rm` for delete (where no sibling has the name). */
const VERB_ALIASES: Record<string, string> = { list: 'ls', delete: 'rm' };

function addVerbAliases(cmd: Command): void {
  for (const sub of cmd.commands) {
    const alias = VERB_ALIASES[sub.name()];
    const taken = cmd.commands.some((c) => c.name() === alias || c.aliases().includes(alias ?? ''));
    if (alias && !taken) sub.alias(alias);
    addVerbAliases(sub);
  }
}

/**
 * A noun's own `help VERB` (`bankctl auth help token`), worded as the root's `help` is: commander's
 * default said "display help for command" in every noun's list of verbs.
 */
function verbHelpCommands(cmd: Command): void {
  if (cmd.commands.length === 0) return;
  cmd.helpCommand('help [verb]', 'show the help of one of these verbs');
  // `bankctl auth help help`: the help of that help command (commander looked for a verb named help)
  const c = cmd as unknown as { _dispatchHelpCommand?: (name?: string) => unknown };
  const dispatch = c._dispatchHelpCommand?.bind(c);
  if (dispatch) c._dispatchHelpCommand = (name) => (isHelpOfHelp(cmd, name) ? helpOfHelp(cmd) : dispatch(name));
  for (const sub of cmd.commands) verbHelpCommands(sub);
}

/** `help` named under a noun that has no verb of that name: its own help command. */
function isHelpOfHelp(cmd: Command, word: string | undefined): boolean {
  return word === 'help' && cmd.commands.length > 0 && !subcommand(cmd, 'help');
}

/** The help of a noun's `help [verb]` command, as a verb's help is shown (exit 0). */
function helpOfHelp(cmd: Command): never {
  const verbs = cmd.commands.map((c) => c.name()).filter((n) => !n.startsWith('_'));
  const help: Command = cmd
    .createCommand('help')
    .copyInheritedSettings(cmd)
    .helpOption(false)
    .description(
      `show the help of one of these verbs: \`${commandPath(cmd)} help VERB\` is \`${commandPath(cmd)} VERB --help\``,
    )
    .argument('[verb]', `one of ${verbs.join(', ')}`);
  // its path in the usage line (bankctl auth help), without making it one of the noun's verbs
  (help as unknown as { parent: Command }).parent = cmd;
  return help.help();
}

/** `bankctl help transactions list`: the help of any command, however deep (commander's goes one level). */
function addHelpCommand(program: Command): void {
  program.helpCommand(false);
  program
    .command('help')
    .helpGroup(TOOLS)
    .description('show the help of a command, e.g. `bankctl help transactions list`')
    .argument('[command...]', 'the command path')
    .action((words: string[]) => {
      let cmd = program;
      for (const [i, w] of words.entries()) {
        const next = subcommand(cmd, w);
        // `help auth help`: the noun's help command's own help; `help auth help token` is auth token's
        if (!next && isHelpOfHelp(cmd, w)) {
          if (i === words.length - 1) helpOfHelp(cmd);
          continue;
        }
        // the same line as `bankctl WORDS` would give: the near spelling, or the noun's verbs
        if (!next) unknownCommand(cmd, w);
        cmd = next;
      }
      cmd.outputHelp();
    });
}

/** `config set <secret key> VALUE`: the value is checked like any other, but never shown. */
function setsSecret(cmd: Command): boolean {
  return (
    cmd.name() === 'set' &&
    cmd.parent?.name() === 'config' &&
    /secret|token|basic/i.test(String(cmd.processedArgs[0] ?? ''))
  );
}
