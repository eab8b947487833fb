import { describe, expect } from 'vitest';
import { newCmdLogin } from '../../../src/commands/auth/login.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { cliCases, not, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox();
const config = { BANKCTL_CONFIG_DIR: tempDir() };
/** The sandbox's URL only: the client credentials come from the command line. */
const env = () => ({ BANKCTL_BASE_URL: sb.t.sandbox.baseUrl, ...config });

describe('auth login: flags', () => {
  optionCases('auth login', newCmdLogin, [
    {
      name: 'checked against the token endpoint by default',
      args: [],
      options: { scope: 'authorization:grant', verify: true },
    },
    {
      name: '--no-verify',
      args: ['--no-verify', '--scope', 'user:create'],
      options: { scope: 'user:create', verify: false },
    },
  ]);
});

describe('auth login: output', () => {
  cliCases('auth login', env, [
    {
      name: 'the secret on stdin: checked, stored, never shown',
      args: () => ['--client-id', sb.t.sandbox.clientId, '--client-secret-stdin'],
      stdin: () => `${sb.t.sandbox.clientSecret}\n`,
      code: 0,
      stderr: [
        /client credentials accepted by http:\/\/127\.0\.0\.1:\d+ \(scope authorization:grant\)/,
        /stored in profile "default"/,
      ],
      after: async (r) => {
        expect(r.stderr).not.toContain(sb.t.sandbox.clientSecret);
        const got = await runCli(['config', 'get', 'client-id'], { env: env() });
        expect(got.stdout.trim()).toBe(sb.t.sandbox.clientId);
      },
    },
    {
      name: 'a wrong secret is 3 and stores nothing',
      args: ['--client-id', 'someone', '--client-secret-stdin', '--profile', 'wrong'],
      stdin: 'not-the-secret\n',
      code: 3,
      stderr: not('not-the-secret'),
      after: async () =>
        expect(
          (await runCli(['config', 'list', '--profile', 'wrong', '-o', 'json'], { env: env() })).stdout.trim(),
        ).toBe('[]'),
    },
    {
      name: 'no client id without a terminal',
      args: ['--client-secret-stdin', '--profile', 'p3'],
      stdin: 'x\n',
      code: 2,
      stderr: 'a client id is needed',
    },
    {
      name: 'no secret without a terminal',
      args: ['--client-id', 'x', '--profile', 'p2'],
      code: 2,
      stderr: 'a client secret is needed',
    },
    {
      name: '--no-verify stores without asking the service',
      args: [
        '--client-id',
        'offline',
        '--client-secret-stdin',
        '--no-verify',
        '--profile',
        'offline',
        '--base-url',
        'http://127.0.0.1:9',
      ],
      stdin: 'offline-secret\n',
      code: 0,
      stderr: ['stored in profile "offline"', not('accepted')],
    },
    {
      // it stored them and every later command of the profile refused them
      name: '--no-verify with a base URL or pin no request can use stores nothing',
      args: [
        '--client-id',
        'offline',
        '--client-secret-stdin',
        '--no-verify',
        '--profile',
        'badwhere',
        '--base-url',
        'ftp://x',
        '--pin',
        'abc',
      ],
      stdin: 'offline-secret\n',
      code: 2,
      stderr: [
        'base-url must be an http(s) URL, got "ftp://x" (from --base-url); pin "abc" is not a base64 SHA-256',
        '(from --pin)',
        not('stored in profile'),
      ],
      after: async () =>
        expect(
          (await runCli(['config', 'list', '--profile', 'badwhere', '-o', 'json'], { env: env() })).stdout.trim(),
        ).toBe('[]'),
    },
  ]);
});
