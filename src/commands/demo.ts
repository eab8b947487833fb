// `demo`: the guided walk. An embedded sandbox in this process, and the real bankctl commands run
// against it one after another, each shown as the command a person would type. A noun that is one
// command: it configures the `demo` command src/program.ts made. The command lines run through
// main.ts's `run`, handed in by the program (ProgramDeps), so this module never imports main.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { ProgramDeps } from '../program.js';
import { canPrompt, type IO } from '../io.js';
import { FlowFailedError } from '../errors.js';
import { ConfigStore } from '../config/store.js';
import { examples, parseIntArg, type Run } from './util.js';
import { wrapText } from '../output/wrap.js';

export interface DemoOptions {
  authDelayMs: number;
  interactive: boolean;
  runCommandLine: NonNullable<ProgramDeps['runCommandLine']>;
}

export function newCmdDemo(demo: Command, ctx: Context, deps: ProgramDeps, run: Run<DemoOptions> = demoRun): Command {
  demo
    .option('--auth-delay <ms>', 'how long the simulated bank waits take', '600')
    .option('--no-interactive', 'never prompt, even on a terminal (scripted answers)')
    .action(async (o: { authDelay: string; interactive?: boolean }) => {
      const authDelayMs = parseIntArg(o.authDelay, '--auth-delay') ?? 600;
      if (!deps.runCommandLine) throw new Error('demo: the program was built without a way to run command lines');
      await run(ctx, {
        authDelayMs,
        interactive: o.interactive !== false && canPrompt(ctx.io),
        runCommandLine: deps.runCommandLine,
      });
    });
  return examples(demo, ['bankctl demo', 'bankctl demo --no-interactive --auth-delay 100']);
}

export const registerDemo = (demo: Command, ctx: Context, deps: ProgramDeps): void => void newCmdDemo(demo, ctx, deps);

/** One walk: where its commands point, how they run, and how they are shown. */
class Walk {
  readonly env: Record<string, string | undefined>;
  /** `-o table` for the steps that show a table when no one is there to see a TTY's default. */
  readonly table: string[];

  constructor(
    private readonly ctx: Context,
    private readonly o: DemoOptions,
    sandbox: { baseUrl: string; clientId: string; clientSecret: string; connectorToken: string },
    readonly dir: string,
  ) {
    this.env = {
      ...ctx.env,
      BANKCTL_CONFIG_DIR: dir,
      BANKCTL_BASE_URL: sandbox.baseUrl,
      BANKCTL_CLIENT_ID: sandbox.clientId,
      BANKCTL_CLIENT_SECRET: sandbox.clientSecret,
      BANKCTL_CONNECTOR_TOKEN: sandbox.connectorToken,
      BANKCTL_PROFILE: 'demo',
    };
    this.table = o.interactive ? [] : ['-o', 'table'];
  }

  get interactive(): boolean {
    return this.o.interactive;
  }

  bold = (s: string) => (this.ctx.color ? `\x1b[1m${s}\x1b[0m` : s);
  dim = (s: string) => (this.ctx.color ? `\x1b[2m${s}\x1b[0m` : s);
  /** Narration on stderr, wrapped to the terminal's width (a command line's continuation indented). */
  say = (s: string) => {
    const io = this.ctx.io;
    const cols = Number(io.env.COLUMNS);
    const width = io.stderrIsTTY ? (Number.isInteger(cols) && cols > 0 ? cols : io.columns) : Infinity;
    io.stderr.write(`${wrapText(s, width, s.includes('$ bankctl') ? '    ' : '')}\n`);
  };

  /** Runs one bankctl command in this process; returns its exit code and what it printed. */
  /** `stdin`, when given, is shown as read from the file `from` (a secret is typed nowhere). */
  async step(
    title: string,
    args: string[],
    shown = args,
    stdin?: string,
    from?: string,
  ): Promise<{ code: number; out: string }> {
    this.say(`\n${this.bold(`▸ ${title}`)}`);
    this.say(this.dim(`$ bankctl ${shown.join(' ')}${from ? ` < ${from}` : ''}`));
    let out = '';
    const ctx = this.ctx;
    const capture = new Writable({
      write(chunk, _enc, cb) {
        out += chunk.toString();
        // a failed write is stdout's own error, handled where stdout is (`npm start | head`: the
        // reader went away); handed to this stream's callback it was an unhandled 'error' event
        // and a stack trace
        ctx.io.stdout.write(chunk, () => cb());
      },
    });
    const io: IO = {
      ...ctx.io,
      env: this.env,
      stdout: capture,
      ...(stdin !== undefined ? { stdin: Readable.from([stdin]), stdinIsTTY: false } : {}),
    };
    const code = await this.o.runCommandLine(args, io);
    return { code, out };
  }

  /** A step whose JSON output the walk goes on with; a failure ends the demo (exit 9). */
  async json(title: string, args: string[]): Promise<Record<string, unknown>> {
    const r = await this.step(title, [...args, '-o', 'json']);
    if (r.code !== 0) throw new FlowFailedError(`the demo step "${title}" failed (exit ${r.code})`);
    return JSON.parse(r.out) as Record<string, unknown>;
  }
}

export async function demoRun(ctx: Context, o: DemoOptions): Promise<void> {
  const { startSandbox } = await import('../sandbox/index.js');
  const sandbox = await startSandbox({ port: 0, authDelayMs: o.authDelayMs });
  const dir = mkdtempSync(join(tmpdir(), 'bankctl-demo-'));
  // the walk's profile, saved in its own config dir (a profile that is not saved is refused)
  (await ConfigStore.open(dir)).set('demo', 'base-url', sandbox.baseUrl);
  const w = new Walk(ctx, o, sandbox, dir);
  try {
    w.say(w.bold('bankctl demo'));
    w.say(`An embedded sandbox is running at ${sandbox.baseUrl}: a local emulator of the whole service.`);
    w.say('Every step below is a real bankctl command against it; nothing leaves this machine.');
    const userId = await bankJourney(w);
    w.say(w.dim('\nA partner backend pushes its own data through the connector instead.'));
    await connectorJourney(w, sandbox.clock.now());
    await w.step('Delete the end user and all of their data', ['users', 'delete', '--user', userId, '--yes']);
    w.say(
      `\n${w.bold('That is the journey.')} Next: \`bankctl sandbox start\` for a sandbox of your own, \`bankctl --help\` for every command, \`bankctl smoke\` to check a real environment.`,
    );
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const PASSWORD_PROVIDER = [
  '--provider',
  'se-test-password',
  '--field',
  'username=test-user',
  '--field-stdin',
  'password',
];

/** A user, a bank connection, and what it brought in. Returns the user id. */
async function bankJourney(w: Walk): Promise<string> {
  const user = await w.json('Create an end user in the Swedish market', [
    'users',
    'create',
    '--market',
    'SE',
    '--locale',
    'sv_SE',
  ]);
  const userId = String(user.user_id);
  w.say(w.dim(`The user id ${userId} is what your backend keeps; --user ${userId} acts as that user.`));
  await w.step('List the test providers of the market', [
    'providers',
    'list',
    '--market',
    'SE',
    '--only-test',
    ...w.table,
    '--fields',
    'name,displayName,credentialsType',
  ]);
  w.say(w.dim('Connecting a bank creates credentials and walks their status machine until UPDATED.'));
  let connected;
  if (w.interactive) {
    w.say(
      w.dim(
        'Pick a provider; `test-user` / `test-password` succeeds, codes of 4 to 8 digits pass, eID shows a QR code.',
      ),
    );
    const args = ['credentials', 'connect', '--user', userId, '--market', 'SE', '--include-test'];
    connected = await w.step('Connect a test bank', args);
  } else {
    const args = ['credentials', 'connect', '--user', userId, ...PASSWORD_PROVIDER, '-o', 'table'];
    connected = await w.step(
      'Connect a test bank',
      [...args, '--fields', 'id,providerName,status'],
      undefined,
      'test-password',
      'password.txt',
    );
  }
  if (connected.code !== 0) {
    w.say(w.dim('That connection did not succeed; the demo goes on with the password test provider.'));
    const args = ['credentials', 'connect', '--user', userId, ...PASSWORD_PROVIDER];
    connected = await w.step('Connect the password test provider', args, args, 'test-password', 'password.txt');
    if (connected.code !== 0) throw new FlowFailedError('the test bank could not be connected');
  }
  await w.step('The accounts the refresh brought in', ['accounts', 'list', '--user', userId, ...w.table]);
  await w.step('The latest transactions, amounts exact to the cent', [
    'transactions',
    'list',
    '--user',
    userId,
    '--limit',
    '8',
    ...w.table,
  ]);
  await w.step('The consent behind them', ['consents', 'list', '--user', userId, ...w.table]);
  return userId;
}

/** A connector user, its accounts and 40 transactions pushed, read back with HTTP Basic. */
async function connectorJourney(w: Walk, now: number): Promise<void> {
  const token = 'demo-user-token-0001';
  const activate = [
    'connector',
    'users',
    'create',
    '--external-id',
    'demo-shop',
    '--user-token-stdin',
    '--market',
    'SE',
  ];
  await w.step('Activate a connector user', activate, activate, `${token}\n`, 'user-token.txt');
  const account = {
    externalId: 'shop-acc-1',
    name: 'Shop checking',
    number: '5555-1',
    balance: 2500.75,
    type: 'CHECKING',
  };
  const accountsFile = join(w.dir, 'accounts.json');
  writeFileSync(accountsFile, JSON.stringify({ accounts: [account] }));
  const balancesFile = join(w.dir, 'accounts.ndjson');
  writeFileSync(balancesFile, `${JSON.stringify(account)}\n`);
  await w.step(
    'Push its accounts',
    ['connector', 'accounts', 'push', '--file', accountsFile, '--user', 'demo-shop'],
    ['connector', 'accounts', 'push', '--file', 'accounts.json', '--user', 'demo-shop'],
  );
  const txFile = join(w.dir, 'transactions.ndjson');
  writeFileSync(
    txFile,
    Array.from({ length: 40 }, (_, i) =>
      JSON.stringify({
        account: 'shop-acc-1',
        externalId: `shop-tx-${i}`,
        amount: Number(`${i % 4 ? '-' : ''}${(i * 13) % 200}.${String((i * 7) % 100).padStart(2, '0')}`),
        date: now - i * 86_400_000,
        description: `Order ${1000 + i}`,
        type: 'DEFAULT',
        pending: false,
      }),
    ).join('\n'),
  );
  await w.step(
    'Push 40 transactions, chunked, retried, exactly once',
    ['connector', 'push', '--file', txFile, '--user', 'demo-shop', '--accounts', balancesFile],
    ['connector', 'push', '--file', 'transactions.ndjson', '--accounts', 'accounts.ndjson', '--user', 'demo-shop'],
  );
  w.env.BANKCTL_BASIC = `demo-shop:${token}`;
  await w.step('Read them back as that user (HTTP Basic from BANKCTL_BASIC)', [
    'transactions',
    'list',
    '--limit',
    '5',
    ...w.table,
  ]);
  delete w.env.BANKCTL_BASIC;
}
