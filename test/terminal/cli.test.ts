// Help, aliases, guardrails without a terminal, profiles, `api -i` and `api --dry-run`, through
// the spawned CLI.
import { describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { useSandbox } from '../helpers/commands.js';

const s = useSandbox({ user: true });

describe('help', () => {
  test('a help with a long term still wraps at 80 columns: the term on a line of its own', async () => {
    // `update-link [options] <credentialsId>` left under 40 columns, and commander then wrapped
    // nothing in the whole help: lines of up to 200 characters (every inherited option's too)
    for (const argv of [
      ['consents', '--help'],
      ['help', 'consents'],
      ['consents', 'v2', '--help'],
    ]) {
      const r = await spawnCli(argv);
      expect(r.code).toBe(0);
      // an example line, and a single word with no place to break (an endpoint path), may be longer
      const long = r.stdout.split('\n').filter((l) => l.length > 80 && !l.startsWith('  $ ') && /\S\s+\S/.test(l));
      expect(long, argv.join(' ')).toEqual([]);
    }
    const a = await spawnCli(['consents', '--help']);
    expect(a.stdout).toMatch(/\n {2}update-link \[options\] <credentialsId>\n {30,}print the link-service URL/);
    expect(a.stdout).toMatch(/\n {2}--max-response-size <size> +largest response body read, e\.g\. 64MiB\n {30,}\(env/);
  });

  test("a verb's help: its own options, then the inherited ones; `help transactions list` is the same", async () => {
    const a = await spawnCli(['transactions', 'list', '--help']);
    const b = await spawnCli(['help', 'transactions', 'list']);
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    const own = a.stdout.indexOf('--page-size');
    const inherited = a.stdout.indexOf('Inherited options:');
    expect(own).toBeGreaterThan(0);
    expect(inherited).toBeGreaterThan(own);
    expect(a.stdout.slice(inherited)).toMatch(/--profile <name>[\s\S]*--jq <expr>[\s\S]*--yes/);
    // a path that is not a command: the line `bankctl reports list` itself gives, exit 2
    const bad = await spawnCli(['help', 'reports', 'list']);
    const direct = await spawnCli(['reports', 'list']);
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([2, '', direct.stderr]);
    expect(bad.stderr).toBe("error: unknown command 'list' (the commands of `bankctl reports` are create, get, pdf)\n");
    // the same under a noun's own help command (`reports help list` printed the noun's help, exit 0)
    const under = await spawnCli(['reports', 'help', 'list']);
    expect([under.code, under.stdout, under.stderr]).toEqual([2, '', direct.stderr]);
    const nested = await spawnCli(['consents', 'v2', 'help', 'frob']);
    expect([nested.code, nested.stdout]).toEqual([2, '']);
    expect(nested.stderr).toMatch(
      /^error: unknown command 'frob' \(the commands of `bankctl consents v2` are create, /,
    );
    // a verb that exists: its help, as before
    const good = await spawnCli(['reports', 'help', 'pdf']);
    expect([good.code, good.stdout.split('\n')[0]]).toEqual([0, 'Usage: bankctl reports pdf [options] <id>']);
  });

  test("`help` of a noun's help command: its own help, not \"unknown command 'help' (Did you mean help?)\"", async () => {
    const a = await spawnCli(['help', 'auth', 'help']);
    const b = await spawnCli(['auth', 'help', 'help']);
    expect([a.code, a.stderr]).toEqual([0, '']);
    expect([b.code, b.stderr, b.stdout]).toEqual([0, '', a.stdout]);
    expect(a.stdout.split('\n')[0]).toBe('Usage: bankctl auth help [verb]');
    expect(a.stdout).toContain('show the help of one of these verbs');
    expect(a.stdout).toMatch(/verb +one of login, status, token, /);
    // a nested noun's too, and a help word before a verb is the help of that verb
    const nested = await spawnCli(['connector', 'users', 'help', 'help']);
    expect([nested.code, nested.stdout.split('\n')[0]]).toEqual([0, 'Usage: bankctl connector users help [verb]']);
    // --help of it says the same; before a verb, that verb's help
    const flag = await spawnCli(['auth', 'help', '--help']);
    expect([flag.code, flag.stderr, flag.stdout]).toEqual([0, '', a.stdout]);
    const verbFlag = await spawnCli(['auth', 'help', 'token', '--help']);
    expect([verbFlag.code, verbFlag.stdout.split('\n')[0]]).toEqual([0, 'Usage: bankctl auth token [options]']);
    const verb = await spawnCli(['help', 'auth', 'help', 'token']);
    expect([verb.code, verb.stdout]).toEqual([0, (await spawnCli(['auth', 'token', '--help'])).stdout]);
    // the root's help of help, as before
    const root = await spawnCli(['help', 'help']);
    expect([root.code, root.stdout.split('\n')[0]]).toEqual([0, 'Usage: bankctl help [options] [command...]']);
  });

  test('the root help: what bankctl does first, by group as gh shows it, then the global options', async () => {
    const r = await spawnCli(['--help']);
    expect(r.code).toBe(0);
    const headings = r.stdout.split('\n').filter((l) => /^\S.*:$/.test(l));
    expect(headings).toEqual([
      'Core commands:',
      'Personal finance commands:',
      'Connector and webhook commands:',
      'Tools:',
      'Global options:',
      'Examples:',
    ]);
    const section = (h: string) => r.stdout.slice(r.stdout.indexOf(h)).split('\n\n')[0]!;
    expect(section('Core commands:')).toMatch(/\n {2}auth [\s\S]*\n {2}credentials [\s\S]*\n {2}transactions\|tx /);
    expect(section('Tools:')).toMatch(/\n {2}sandbox [\s\S]*\n {2}help \[command\.\.\.\]/);
    expect(section('Global options:')).toMatch(/--profile <name>[\s\S]*--pin <sha256>/);
    // every noun once
    for (const noun of ['auth', 'budgets', 'connector', 'webhooks', 'config', 'demo', 'completion'])
      expect(r.stdout.match(new RegExp(`^ {2}${noun}\\b`, 'gm')), noun).toHaveLength(1);
  });

  test("the root help's api example runs as shown on a fresh profile (no user): a market's providers", async () => {
    // it was `api GET /api/v1/providers -f market=SE`: that endpoint takes a user token, so on its
    // own (before `users create --use`) it was exit 2 asking for --user
    const help = (await spawnCli(['--help'])).stdout;
    const line = help.split('\n').find((l) => l.startsWith('  $ bankctl api '))!;
    expect(line).toBeDefined();
    const args = [...line.slice('  $ bankctl '.length).matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    const r = await spawnCli(args, { env: s.t.env });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\n')).toContain('se-test-password');
  });

  test("a noun's help: its verbs first, after the description, then its options and the inherited ones", async () => {
    // the verbs came after ~45 lines of inherited options: below the first screen of a terminal
    for (const args of [
      ['auth', '--help'],
      ['help', 'users'],
      ['consents', 'v2', '--help'],
      ['sandbox', '--help'],
    ]) {
      const r = await spawnCli(args);
      expect(r.code).toBe(0);
      const lines = r.stdout.split('\n');
      const at = (h: string) => lines.indexOf(h);
      expect(at('Commands:'), args.join(' ')).toBeGreaterThan(0);
      expect(at('Commands:'), args.join(' ')).toBeLessThan(8);
      expect(at('Options:')).toBeGreaterThan(at('Commands:'));
      expect(at('Inherited options:')).toBeGreaterThan(at('Options:'));
      expect(at('Examples:')).toBeGreaterThan(at('Inherited options:'));
    }
    // a verb's help is as it was: its options, then the inherited ones
    const verb = (await spawnCli(['auth', 'token', '--help'])).stdout;
    expect(verb.indexOf('Options:')).toBeLessThan(verb.indexOf('Inherited options:'));
    expect(verb).not.toContain('Commands:');
  });

  test('aliases: tx for transactions, ls for list, rm for delete', async () => {
    const r = await spawnCli(['tx', 'ls', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: bankctl transactions list\|ls/);
    const rm = await spawnCli(['users', 'rm', '--help']);
    expect(rm.stdout).toMatch(/Usage: bankctl users delete\|rm/);
  });

  test('the completions know the aliases and ask __complete for values', async () => {
    const r = await spawnCli(['completion', 'bash']);
    expect(r.stdout).toContain("'tx ls')");
    expect(r.stdout).toMatch(/\*'\|--provider'\) echo providers/);
  });
});

describe('__complete', () => {
  test('providers from the sandbox, profiles, events; nothing on error', async () => {
    const p = await spawnCli(['__complete', 'providers', 'se-test-pass'], { env: s.env });
    expect(p.stdout.split('\n')).toContain('se-test-password');
    const e = await spawnCli(['__complete', 'events', 'credentials:']);
    expect(e.stdout).toBe('credentials:create\ncredentials:update\n');
    const bad = await spawnCli(['__complete', 'providers'], {
      env: { ...s.env, BANKCTL_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(bad).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});

describe('guardrails without a terminal', () => {
  test('users delete needs --yes (exit 2 naming --yes) and deletes nothing without it', async () => {
    const r = await spawnCli(['users', 'delete'], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    for (const args of [
      ['credentials', 'delete', 'f'.repeat(32)],
      ['webhooks', 'delete', 'x'],
      ['connector', 'users', 'delete', 'alice'],
      ['auth', 'revoke-all'],
      ['consents', 'delete', 'f'.repeat(32)],
    ]) {
      const x = await spawnCli(args, { env: s.env });
      expect(x.code, args.join(' ')).toBe(2);
      expect(x.stderr, args.join(' ')).toMatch(/refusing without --yes/);
    }
  });

  test('a protected profile refuses data-changing commands without --yes, and config explain shows it', async () => {
    const cfg = tempDir('bankctl-cfg-');
    const env = { ...s.env, BANKCTL_CONFIG_DIR: cfg };
    expect((await spawnCli(['config', 'set', 'protected', 'true'], { env })).code).toBe(0);
    const r = await spawnCli(['users', 'create', '--market', 'SE'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/profile "default" is protected.*--yes/);
    const ok = await spawnCli(['users', 'create', '--market', 'SE', '--yes', '-o', 'json'], { env });
    expect(ok.code).toBe(0);
    const read = await spawnCli(['providers', 'list', '--market', 'SE', '-o', 'json'], { env });
    expect(read.code).toBe(0);
    const ex = await spawnCli(['config', 'explain', '-o', 'json'], { env });
    expect(JSON.parse(ex.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: 'protected', value: 'true' })]),
    );
  });
});

describe('profiles', () => {
  test('config use refuses an unknown profile, suggesting the nearest; --create makes it; config profiles lists', async () => {
    const cfg = tempDir('bankctl-cfg-');
    const env = { BANKCTL_CONFIG_DIR: cfg };
    expect((await spawnCli(['config', 'use', 'production', '--create'], { env })).code).toBe(0);
    const r = await spawnCli(['config', 'use', 'prodution'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no profile "prodution"; did you mean "production"\?/);
    expect(r.stderr).toMatch(/profiles: default, production/);
    const p = await spawnCli(['config', 'profiles', '-o', 'json'], { env });
    expect(JSON.parse(p.stdout)).toEqual([
      { name: 'default', current: false, protected: false },
      { name: 'production', current: true, protected: false },
    ]);
    // csv: plain names and a current column (the table's "* " marker was inside the name field)
    const csv = await spawnCli(['config', 'profiles', '-o', 'csv'], { env });
    expect(csv.stdout).toBe('name,current,protected\r\ndefault,false,false\r\nproduction,true,false\r\n');
  });
});

describe('api', () => {
  test('-i prints the status line and headers on stderr; stdout stays the body', async () => {
    const r = await spawnCli(['api', 'GET', '/api/v1/providers', '-f', 'market=SE', '-i'], { env: s.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^HTTP 200\n/);
    expect(r.stderr).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(r.stdout)).toHaveProperty('providers');
  });

  test('--dry-run prints the request with secrets redacted and sends nothing', async () => {
    const r = await spawnCli(
      [
        'api',
        'POST',
        '/api/v1/oauth/token',
        '-f',
        'client_secret=s3cr3t',
        '-H',
        'Authorization: Bearer abc',
        '--dry-run',
      ],
      { env: { BANKCTL_BASE_URL: 'http://127.0.0.1:9' } },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^POST http:\/\/127\.0\.0\.1:9\/api\/v1\/oauth\/token/);
    expect(r.stdout).not.toContain('s3cr3t');
    expect(r.stdout).not.toContain('abc');
    expect(r.stderr).toMatch(/nothing was sent/);
  });

  test('--jq filters the body', async () => {
    const r = await spawnCli(['api', 'GET', '/api/v1/providers', '-f', 'market=SE', '--jq', '.providers | length'], {
      env: s.env,
    });
    expect(Number(r.stdout)).toBeGreaterThan(1);
  });
});

describe('hints that point the right way', () => {
  test('a 401 on a connector user names the connector token and the user', async () => {
    const r = await spawnCli(['connector', 'users', 'delete', 'ghost', '--yes'], {
      env: { ...s.env, BANKCTL_CONNECTOR_TOKEN: 'not-the-token' },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/connector token/);
    expect(r.stderr).toMatch(/ghost/);
    expect(r.stderr).not.toMatch(/client credentials/);
  });

  test('a wrong client id in auth login does not say "run bankctl auth login"', async () => {
    const r = await spawnCli(['auth', 'login', '--client-id', 'wrong', '--client-secret-stdin'], {
      env: { ...s.env, BANKCTL_CONFIG_DIR: tempDir('bankctl-cfg-') },
      stdin: 'nope\n',
    });
    expect(r.code).toBe(3);
    expect(r.stderr).not.toMatch(/run `bankctl auth login`/);
    expect(r.stderr).toMatch(/client id or secret was refused/);
  });

  test("the profile's user no longer exists: the error names the setting and how to clear it", async () => {
    const cfg = tempDir('bankctl-cfg-');
    const env = { ...s.env, BANKCTL_CONFIG_DIR: cfg, BANKCTL_USER: undefined };
    await spawnCli(['config', 'set', 'user', 'a'.repeat(32)], { env });
    const r = await spawnCli(['accounts', 'list', '-o', 'json'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      /profile default setting "user"; clear it with `bankctl config unset user --profile default`/,
    );
  });

  test('the user of BANKCTL_USER no longer exists: the hint says to unset it, not `config unset`', async () => {
    const env = { ...s.env, BANKCTL_CONFIG_DIR: tempDir('bankctl-cfg-'), BANKCTL_USER: 'b'.repeat(32) };
    const r = await spawnCli(['accounts', 'list', '-o', 'json'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('the user comes from BANKCTL_USER in the environment; unset it, or pass --user');
    expect(r.stderr).not.toContain('config unset');
  });

  test('-v says when a cached token is reused', async () => {
    const env = { ...s.env, BANKCTL_CONFIG_DIR: tempDir('bankctl-cfg-') };
    await spawnCli(['accounts', 'list', '-o', 'json'], { env });
    const r = await spawnCli(['accounts', 'list', '-o', 'json', '-v'], { env });
    expect(r.stderr).toMatch(/reusing a cached user token of user id:[0-9a-f]+ \(scopes [a-z:,]+; \d+ s left\)/);
  });
});
