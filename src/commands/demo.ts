import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { canPrompt, type IO } from '../io.js';
import { FlowFailedError } from '../errors.js';
import { examples, parseIntArg } from './util.js';

interface DemoOpts {
  authDelay: string;
  interactive?: boolean;
}

/**
 * The guided walk: an embedded sandbox in this process, and the real bankctl commands run against
 * it one after another, each shown as the command a person would type.
 */
export function registerDemo(program: Command, ctx: Context): void {
  const cmd = program
    .command('demo')
    .description(
      'a guided end-to-end walk on an embedded sandbox: users, a bank connection, accounts, transactions, consents and a connector push',
    )
    .option('--auth-delay <ms>', 'how long the simulated bank waits take', '600')
    .option('--no-interactive', 'never prompt, even on a terminal (scripted answers)')
    .action(async (o: DemoOpts) => {
      const interactive = o.interactive !== false && canPrompt(ctx.io);
      const { startSandbox } = await import('../sandbox/index.js');
      const { run } = await import('../main.js');
      const sandbox = await startSandbox({ port: 0, authDelayMs: parseIntArg(o.authDelay, '--auth-delay') ?? 600 });
      const dir = mkdtempSync(join(tmpdir(), 'bankctl-demo-'));
      const bold = (s: string) => (ctx.color ? `\x1b[1m${s}\x1b[0m` : s);
      const dim = (s: string) => (ctx.color ? `\x1b[2m${s}\x1b[0m` : s);
      const say = (s: string) => ctx.io.stderr.write(`${s}\n`);
      const env: Record<string, string | undefined> = {
        ...ctx.env,
        BANKCTL_CONFIG_DIR: dir,
        BANKCTL_BASE_URL: sandbox.baseUrl,
        BANKCTL_CLIENT_ID: sandbox.clientId,
        BANKCTL_CLIENT_SECRET: sandbox.clientSecret,
        BANKCTL_CONNECTOR_TOKEN: sandbox.connectorToken,
        BANKCTL_PROFILE: 'demo',
      };
      /** Runs one bankctl command in this process; returns its exit code and what it printed. */
      const step = async (title: string, args: string[], shown = args): Promise<{ code: number; out: string }> => {
        say(`\n${bold(`▸ ${title}`)}`);
        say(dim(`$ bankctl ${shown.join(' ')}`));
        let out = '';
        const capture = new Writable({
          write(chunk, _enc, cb) {
            out += chunk.toString();
            ctx.io.stdout.write(chunk, cb);
          },
        });
        const io: IO = { ...ctx.io, env, stdout: capture };
        const code = await run(args, io);
        return { code, out };
      };
      const json = async (title: string, args: string[]) => {
        const r = await step(title, [...args, '-o', 'json']);
        if (r.code !== 0) throw new FlowFailedError(`the demo step "${title}" failed (exit ${r.code})`);
        return JSON.parse(r.out) as Record<string, unknown>;
      };
      const table = interactive ? [] : ['-o', 'table'];
      try {
        say(bold('bankctl demo'));
        say(`An embedded sandbox is running at ${sandbox.baseUrl}: a local emulator of the whole service.`);
        say('Every step below is a real bankctl command against it; nothing leaves this machine.');

        const user = await json('Create an end user in the Swedish market', [
          'users',
          'create',
          '--market',
          'SE',
          '--locale',
          'sv_SE',
        ]);
        const userId = String(user.user_id);
        say(dim(`The user id ${userId} is what your backend keeps; --user ${userId} acts as that user.`));

        await step('List the test providers of the market', [
          'providers',
          'list',
          '--market',
          'SE',
          '--only-test',
          ...table,
          '--fields',
          'name,displayName,credentialsType',
        ]);

        say(dim('Connecting a bank creates credentials and walks their status machine until UPDATED.'));
        const connectArgs = interactive
          ? ['credentials', 'connect', '--user', userId, '--market', 'SE', '--include-test']
          : [
              'credentials',
              'connect',
              '--user',
              userId,
              '--provider',
              'se-test-password',
              '--field',
              'username=test-user',
              '--field',
              'password=test-password',
              '-o',
              'table',
              '--fields',
              'id,providerName,status',
            ];
        if (interactive)
          say(
            dim(
              'Pick a provider; `test-user` / `test-password` succeeds, codes of 4 to 8 digits pass, eID shows a QR code.',
            ),
          );
        let connected = await step('Connect a test bank', connectArgs);
        if (connected.code !== 0) {
          say(dim('That connection did not succeed; the demo goes on with the password test provider.'));
          connected = await step('Connect the password test provider', [
            'credentials',
            'connect',
            '--user',
            userId,
            '--provider',
            'se-test-password',
            '--field',
            'username=test-user',
            '--field',
            'password=test-password',
          ]);
          if (connected.code !== 0) throw new FlowFailedError('the test bank could not be connected');
        }

        await step('The accounts the refresh brought in', ['accounts', 'list', '--user', userId, ...table]);
        await step('The latest transactions, amounts exact to the cent', [
          'transactions',
          'list',
          '--user',
          userId,
          '--limit',
          '8',
          ...table,
        ]);
        await step('The consent behind them', ['consents', 'list', '--user', userId, ...table]);

        say(dim('\nA partner backend pushes its own data through the connector instead.'));
        const token = 'demo-user-token-0001';
        await step(
          'Activate a connector user',
          ['connector', 'users', 'create', '--external-id', 'demo-shop', '--user-token', token, '--market', 'SE'],
          ['connector', 'users', 'create', '--external-id', 'demo-shop', '--user-token', '***', '--market', 'SE'],
        );
        const account = {
          externalId: 'shop-acc-1',
          name: 'Shop checking',
          number: '5555-1',
          balance: 2500.75,
          type: 'CHECKING',
        };
        const accountsFile = join(dir, 'accounts.json');
        writeFileSync(accountsFile, JSON.stringify({ accounts: [account] }));
        const balancesFile = join(dir, 'accounts.ndjson');
        writeFileSync(balancesFile, `${JSON.stringify(account)}\n`);
        await step(
          'Push its accounts',
          ['connector', 'accounts', 'push', '--file', accountsFile, '--user', 'demo-shop'],
          ['connector', 'accounts', 'push', '--file', 'accounts.json', '--user', 'demo-shop'],
        );
        const txFile = join(dir, 'transactions.ndjson');
        const now = sandbox.clock.now();
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
        await step(
          'Push 40 transactions, chunked, retried, exactly once',
          ['connector', 'push', '--file', txFile, '--user', 'demo-shop', '--accounts', balancesFile],
          [
            'connector',
            'push',
            '--file',
            'transactions.ndjson',
            '--accounts',
            'accounts.ndjson',
            '--user',
            'demo-shop',
          ],
        );
        env.BANKCTL_BASIC = `demo-shop:${token}`;
        await step('Read them back as that user (HTTP Basic from BANKCTL_BASIC)', [
          'transactions',
          'list',
          '--limit',
          '5',
          ...table,
        ]);
        delete env.BANKCTL_BASIC;

        await step('Delete the end user and all of their data', ['users', 'delete', '--user', userId]);
        say(
          `\n${bold('That is the journey.')} Next: \`bankctl sandbox start\` for a sandbox of your own, \`bankctl --help\` for every command, \`bankctl smoke\` to check a real environment.`,
        );
      } finally {
        await sandbox.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  examples(cmd, ['bankctl demo', 'bankctl demo --no-interactive --auth-delay 100']);
}
