// `bankctl credentials connect ... | jq` typed at a terminal: stdin is a terminal, stdout a pipe, so
// nothing is asked (prompts need both). The error says why a terminal at hand is not asked on, and
// what to do: the answers as flags, or stdout on the terminal. A script (no terminal at all) gets
// the plain hint.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../../helpers/cli.js';
import { readyTokenEnv, scriptedServer, type Seen } from '../../helpers/scripted-server.js';

const PIPED =
  'stdout is a pipe or a file, not a terminal, and bankctl asks only when stdin and stdout both are terminals';
const provider = {
  name: 'se-bank',
  displayName: 'Bank',
  market: 'SE',
  type: 'BANK',
  credentialsType: 'PASSWORD',
  fields: [
    { name: 'username', description: 'Username' },
    { name: 'password', description: 'Password', masked: true },
  ],
};

let server: Awaited<ReturnType<typeof scriptedServer>>;
let seen: Seen[];
beforeAll(async () => {
  server = await scriptedServer(() => (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ providers: [provider] }));
  });
  seen = server.seen;
});
afterAll(() => server.close());

/** stdin a terminal (or not), stdout a pipe. */
const run = (args: string[], stdinIsTTY: boolean) =>
  runCli(args, { env: { ...readyTokenEnv(server.url), NO_COLOR: '1' }, stdinIsTTY, stdoutIsTTY: false });

describe('credentials connect with stdout piped, at a terminal', () => {
  test('no --provider: the hint says stdout is the reason and to pass --provider', async () => {
    const r = await run(['credentials', 'connect', '--user', 'u1'], true);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--provider is required when there is no terminal to pick one on');
    expect(r.stderr).toContain(`${PIPED}: pass --provider NAME`);
    expect(r.stderr).toContain('or run it with stdout on the terminal');
  });

  test('a field not given: the hint says stdout is the reason and how to pass it; nothing is created', async () => {
    const before = seen.length;
    const r = await run(
      ['credentials', 'connect', '--user', 'u1', '--provider', 'se-bank', '--field', 'username=u'],
      true,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no value for the credentials field "password" (Password) and no terminal to ask on');
    expect(r.stderr).toContain(`${PIPED}: pass --field-stdin password < FILE (or --field password=VALUE)`);
    expect(seen.slice(before).some((s) => s.method === 'POST')).toBe(false);
  });

  test('without a terminal at all (a script) the hint is the plain one', async () => {
    const r = await run(
      ['credentials', 'connect', '--user', 'u1', '--provider', 'se-bank', '--field', 'username=u'],
      false,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --field-stdin password < FILE (or --field password=VALUE)');
    expect(r.stderr).not.toContain('not a terminal');
    const p = await run(['credentials', 'connect', '--user', 'u1'], false);
    expect(p.stderr).not.toContain('not a terminal');
  });

  test('a destructive command: --yes, and why the terminal is not asked on', async () => {
    const r = await run(['users', 'delete', '--user', 'u1'], true);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('refusing without --yes (there is no terminal to confirm on)');
    expect(r.stderr).toContain(`${PIPED}: pass --yes`);
    const script = await run(['users', 'delete', '--user', 'u1'], false);
    expect(script.stderr).not.toContain('not a terminal');
  });

  test('a change to a protected profile: --yes, and why the terminal is not asked on', async () => {
    const env = { ...readyTokenEnv(server.url), BANKCTL_CONFIG_DIR: tempDir(), NO_COLOR: '1' };
    expect((await runCli(['config', 'set', 'protected', 'true'], { env })).code).toBe(0);
    const r = await runCli(['users', 'create', '--market', 'SE'], { env, stdinIsTTY: true, stdoutIsTTY: false });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('refusing without --yes');
    expect(r.stderr).toContain(`${PIPED}: pass --yes to confirm`);
    const script = await runCli(['users', 'create', '--market', 'SE'], { env });
    expect(script.code).toBe(2);
    expect(script.stderr).not.toContain('not a terminal');
  });
});
