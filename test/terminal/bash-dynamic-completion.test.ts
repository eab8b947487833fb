// The bash completion as the README installs it (`source <(bankctl completion bash)`, bankctl on
// PATH), asked in a real bash for the values a user cannot remember, from a sandbox: a provider's
// name for `providers get`, an account id for `accounts get` and `accounts parties`. Those verbs
// completed nothing (only `accounts update|balances` and the credentials verbs did).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, ROOT, spawnCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
let bin = '';
let user = '';

beforeAll(async () => {
  t = await startTestSandbox();
  bin = join(tempDir('bankctl-bash-'), 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'bankctl'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(bin, 'bankctl'), 0o755);
  const created = await spawnCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env: t.env });
  user = JSON.parse(created.stdout).user_id;
  const connected = await spawnCli(
    [
      'credentials',
      'connect',
      '--provider',
      'se-test-password',
      '--field',
      'username=test-user',
      '--field-stdin',
      'password',
    ],
    { env: { ...t.env, BANKCTL_USER: user }, stdin: 'test-password\n' },
  );
  expect(connected.code, connected.stderr).toBe(0);
}, 60_000);
afterAll(() => t.close());

/** COMPREPLY of the sourced completion for these words (the last one is being completed). */
function complete(words: string[]): Promise<string[]> {
  const script = `source <(bankctl completion bash)
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _bankctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      env: { ...t.env, BANKCTL_USER: user, HOME: tempDir(), PATH: `${bin}:/usr/bin:/bin` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out.split('\n').filter(Boolean)) : reject(new Error(err))));
  });
}

describe('bash completion of a verb argument from the service', () => {
  test('providers get se-test-pass<TAB>: the test providers of that name', async () => {
    expect(await complete(['bankctl', 'providers', 'get', 'se-test-pass'])).toEqual(['se-test-password']);
  }, 30_000);

  test("accounts get <TAB> and accounts parties <TAB>: the user's account ids", async () => {
    const listed = await spawnCli(['accounts', 'list', '-o', 'json'], { env: { ...t.env, BANKCTL_USER: user } });
    const ids = (JSON.parse(listed.stdout) as Array<{ id: string }>).map((a) => a.id).sort();
    expect(ids.length).toBeGreaterThan(0);
    expect((await complete(['bankctl', 'accounts', 'get', ''])).sort()).toEqual(ids);
    expect((await complete(['bankctl', 'accounts', 'parties', ''])).sort()).toEqual(ids);
    // as before: accounts update
    expect((await complete(['bankctl', 'accounts', 'update', ''])).sort()).toEqual(ids);
  }, 30_000);

  test('help tr<TAB> and help transactions l<TAB>: the words of the command asked about, and no flags of it', async () => {
    expect(await complete(['bankctl', 'help', 'tr'])).toEqual(['transactions', 'transfers']);
    expect(await complete(['bankctl', 'help', 'transactions', 'l'])).toEqual(['list', 'ls']);
    expect(await complete(['bankctl', 'help', 'transactions', 'list', '--'])).toEqual(['--help']);
  }, 30_000);
});

describe("the README's bash install line", () => {
  // The README said how to install the zsh completion only; a partner on bash had the generated
  // script's header (/etc/bash_completion.d, root) or `completion --help` to go by.
  test('run as written in a fresh HOME: a new interactive bash completes bankctl', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const line = [...readme.matchAll(/`([^`]*completion bash[^`]*~\/\.bashrc[^`]*)`/g)].map((m) => m[1]!)[0];
    expect(line, 'a README command that installs the bash completion in ~/.bashrc').toBeDefined();
    const home = tempDir('bankctl-home-');
    const env = { HOME: home, PATH: `${bin}:/usr/bin:/bin`, BANKCTL_CONFIG_DIR: tempDir() };
    const sh = (args: string[]) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn('bash', args, { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (c) => (out += c));
        child.on('error', reject);
        child.on('close', () => resolve(out));
      });
    await sh(['-c', line!]);
    const out = await sh([
      '-i',
      '-c',
      `complete -p bankctl; COMP_WORDS=(bankctl cred); COMP_CWORD=1; _bankctl; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ]);
    expect(out.split('\n').filter(Boolean)).toEqual(['complete -o default -F _bankctl bankctl', 'credentials']);
  }, 30_000);
});
