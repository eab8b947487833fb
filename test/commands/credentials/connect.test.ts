import { describe, expect } from 'vitest';
import { newCmdConnect } from '../../../src/commands/credentials/connect.js';
import { cliCases, not, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
const FAST = ['--poll-interval', '20', '--wait-timeout', '20'];

describe('credentials connect: flags', () => {
  optionCases('credentials connect', newCmdConnect, [
    {
      name: 'a provider, fields, the walk options',
      args: ['--user', 'u1', '--provider', 'p', '--field', 'username=u', '--items', 'checking_accounts', ...FAST],
      options: {
        provider: 'p',
        fields: { username: 'u' },
        onCommandLine: ['username'],
        items: ['CHECKING_ACCOUNTS'],
        walk: expect.objectContaining({ pollMs: 20, waitTimeoutMs: 20_000, answers: {} }),
      },
    },
    {
      name: 'a password from stdin is not on the command line',
      args: ['--user', 'u1', '--provider', 'p', '--field-stdin', 'password'],
      stdin: 'pw\n',
      options: { fields: { password: 'pw' }, onCommandLine: [] },
    },
    { name: 'no user', args: ['--provider', 'p'], code: 2, stderr: 'credentials connect acts for a user' },
    {
      name: 'no provider and no terminal to pick one on',
      args: ['--user', 'u1'],
      code: 2,
      stderr: '--provider is required when there is no terminal',
    },
    {
      name: 'an unknown market',
      args: ['--user', 'u1', '--market', 'XX'],
      code: 2,
      stderr: '--market: unknown market "XX"',
    },
    {
      name: 'a poll interval too short',
      args: ['--user', 'u1', '--provider', 'p', '--poll-interval', '1'],
      code: 2,
      stderr: '--poll-interval must be a whole number from 10 to 60000, got 1',
    },
    {
      // found only in the opt-in round, it left created credentials waiting for input (a retry: 409)
      name: "--answer '*=yes': a checkbox takes true or false, refused before anything is created",
      args: ['--user', 'u1', '--provider', 'p', '--field', 'username=u', '--opt-in', '--answer', '*=yes'],
      code: 2,
      stderr: '--answer *: answer true or false, got "yes"',
    },
  ]);
});

describe('credentials connect: output', () => {
  cliCases('credentials connect', () => sb.env, [
    {
      name: 'the password test provider ends UPDATED; the password came on stdin',
      args: [
        '--provider',
        'se-test-password',
        '--field',
        'username=test-user',
        '--field-stdin',
        'password',
        ...FAST,
        '-o',
        'json',
      ],
      stdin: 'test-password\n',
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toMatchObject({ status: 'UPDATED', providerName: 'se-test-password' }),
      stderr: [/created credentials [0-9a-f]{32} for se-test-password/, not('warning'), not(/^test-password$/m)],
    },
    {
      name: '--field password=... warns, and names the other ways',
      args: [
        '--provider',
        'se-test-other-password',
        '--field',
        'username=test-user',
        '--field',
        'password=test-password',
        ...FAST,
      ],
      code: 0,
      stderr:
        'warning: --field password on the command line is visible to other users in the process list; use --field-stdin password, leave it out to be asked, or put it in the --answers file instead',
    },
    {
      name: 'a missing field without a terminal names the flag',
      args: ['--provider', 'se-test-other-password', '--field', 'username=someone-else', ...FAST],
      code: 2,
      stderr: /password.*--field password=VALUE/,
    },
    { name: 'an unknown provider is 4', args: ['--provider', 'no-such-bank', '--field', 'username=x'], code: 4 },
  ]);
});
