// createProgram(ctx): a fresh commander tree per call, so tests build their own.
import { Command, Option } from 'commander';
import type { Context } from './context.js';
import { OUTPUT_FORMATS } from './context.js';
import { VERSION } from './version.js';
import { registerAuth } from './commands/auth/index.js';
import { registerUsers } from './commands/users/index.js';
import { registerProviders } from './commands/providers/index.js';
import { registerCredentials } from './commands/credentials/index.js';
import { registerBudgets } from './commands/budgets/index.js';
import { registerInsights } from './commands/insights/index.js';
import { registerStatistics } from './commands/statistics/index.js';
import { registerCalendar } from './commands/calendar/index.js';
import { registerSearch } from './commands/search/index.js';
import { registerTransfers } from './commands/transfers/index.js';
import { registerReports } from './commands/reports/index.js';
import { registerConfig } from './commands/config/index.js';
import { registerVersion } from './commands/version.js';
import { registerApi } from './commands/api.js';
import { registerSandbox } from './commands/sandbox/index.js';
import { registerDoctor } from './commands/doctor.js';
import { registerCompletion } from './commands/completion.js';
import { registerSmoke } from './commands/smoke.js';
import { registerDemo } from './commands/demo.js';
import { registerWebhooks } from './commands/webhooks/index.js';
import { registerConnector } from './commands/connector/index.js';
import { registerAccounts } from './commands/accounts/index.js';
import { registerBalanceRefresh } from './commands/balance-refresh/index.js';
import { registerTransactions } from './commands/transactions/index.js';
import { registerConsents } from './commands/consents/index.js';
import { registerIdentities } from './commands/identities/index.js';
import { registerInvestments } from './commands/investments/index.js';
import { registerLoans } from './commands/loans/index.js';
import { registerCategories } from './commands/categories/index.js';
import { examples } from './commands/util.js';

export function createProgram(ctx: Context): Command {
  const program = new Command('bankctl');
  program
    .description('Command-line tool for the financial-data aggregation service, with an embedded sandbox.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.io.stdout.write(s),
      writeErr: (s) => ctx.io.stderr.write(s),
      outputError: (s, write) => write(s.startsWith('error:') ? s : `error: ${s}`),
    })
    .option('--profile <name>', 'saved profile to use (env BANKCTL_PROFILE)')
    .option('--base-url <url>', 'API base URL (env BANKCTL_BASE_URL; default http://127.0.0.1:8787, the local sandbox)')
    .option('--link-url <url>', 'hosted link flow base URL (env BANKCTL_LINK_URL; default <base-url>/link)')
    .addOption(new Option('-o, --output <format>', 'output format (env BANKCTL_OUTPUT; default table on a TTY, json otherwise)').choices([...OUTPUT_FORMATS]))
    .option('--fields <paths>', 'columns for table and csv: comma-separated dotted paths')
    .option('-v, --verbose', 'HTTP trace on stderr, secrets redacted (env BANKCTL_DEBUG=1)')
    .option('-q, --quiet', 'no progress, spinners or notices on stderr')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('--timeout <seconds>', 'per-request timeout in seconds (env BANKCTL_TIMEOUT; default 30)')
    .option('--retries <n>', 'retries of 429, 5xx on idempotent requests and network errors (env BANKCTL_RETRIES; default 3)')
    .option('--client-id <id>', 'OAuth client id (env BANKCTL_CLIENT_ID)')
    .option('--client-secret <secret>', 'OAuth client secret (env BANKCTL_CLIENT_SECRET; prefer --client-secret-stdin)')
    .option('--client-secret-stdin', 'read the client secret from standard input')
    .option('--token <token>', 'a ready bearer token (env BANKCTL_TOKEN)')
    .option('--connector-token <token>', 'connector token, sent as "Token <token>" (env BANKCTL_CONNECTOR_TOKEN)')
    .option('--user <id>', 'acting end user by user id (env BANKCTL_USER)')
    .option('--external-user <id>', 'acting end user by external user id')
    .option('--basic <user:token>', 'HTTP Basic for connector-pushed users (env BANKCTL_BASIC)')
    .option('--ca-file <file>', 'extra trusted CA certificates, PEM (env BANKCTL_CA_FILE)')
    .option('--pin <sha256>', 'certificate pin: base64 SHA-256 of the server SubjectPublicKeyInfo (env BANKCTL_PIN)');

  program.hook('preAction', async (_this, actionCommand) => {
    ctx.globals = actionCommand.optsWithGlobals();
    if (ctx.globals.clientSecretStdin) await ctx.readSecretFromStdin();
    for (const [flag, key] of [
      ['--client-secret', 'clientSecret'],
      ['--token', 'token'],
      ['--connector-token', 'connectorToken'],
      ['--basic', 'basic'],
    ] as const) {
      if (ctx.globals[key] && !ctx.quiet) {
        ctx.warn(`${flag} on the command line is visible to other users in the process list; use ${flag === '--client-secret' ? '--client-secret-stdin' : 'an environment variable or the profile'} instead`);
      }
    }
  });

  registerAuth(program, ctx);
  registerUsers(program, ctx);
  registerProviders(program, ctx);
  registerCredentials(program, ctx);
  registerBudgets(program, ctx);
  registerInsights(program, ctx);
  registerStatistics(program, ctx);
  registerCalendar(program, ctx);
  registerSearch(program, ctx);
  registerTransfers(program, ctx);
  registerReports(program, ctx);
  registerConfig(program, ctx);
  registerApi(program, ctx);
  registerVersion(program, ctx);
  registerSandbox(program, ctx);
  registerDoctor(program, ctx);
  registerSmoke(program, ctx);
  registerDemo(program, ctx);
  registerCompletion(program, ctx);
  registerWebhooks(program, ctx);
  registerConnector(program, ctx);
  registerAccounts(program, ctx);
  registerBalanceRefresh(program, ctx);
  registerTransactions(program, ctx);
  registerConsents(program, ctx);
  registerIdentities(program, ctx);
  registerInvestments(program, ctx);
  registerLoans(program, ctx);
  registerCategories(program, ctx);

  examples(program, [
    'bankctl sandbox start --detach          # a local emulator of the service',
    'bankctl users create --market SE --locale sv_SE --use',
    'bankctl auth token --scope user:create',
    'bankctl api GET /api/v1/providers -f market=SE',
  ]);
  program.addHelpText('after', '\nExit codes: 0 ok, 1 bug, 2 usage or 400, 3 auth, 4 not found, 5 conflict, 6 rate limited, 7 server error, 8 network, 9 flow failed, 130 interrupted.');
  return program;
}
