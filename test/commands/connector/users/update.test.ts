import { describe, expect, test } from 'vitest';
import { newCmdUpdate } from '../../../../src/commands/connector/users/update.js';
import { spawnCli } from '../../../helpers/cli.js';
import { cliCases, not, optionCases, useSandbox } from '../../../helpers/commands.js';
import { call } from '../../../connector/helpers.js';

const sb = useSandbox();

describe('connector users update: flags', () => {
  optionCases('connector users update', newCmdUpdate, [
    {
      name: 'the token from stdin, unblocked, a label',
      args: ['alice', '--user-token-stdin', '--no-blocked', '--label', 'vip'],
      stdin: 'tok\n',
      options: { user: { externalId: 'alice', token: 'tok', blocked: false, label: 'vip' } },
    },
    { name: 'the token is required on every update', args: ['alice'], code: 2, stderr: '--user-token is required' },
    {
      name: 'an unsupported locale',
      args: ['alice', '--user-token-stdin', '--locale', 'xx_XX'],
      code: 2,
      stderr: 'unsupported locale "xx_XX"',
    },
  ]);
});

describe('connector users update: output', () => {
  cliCases('connector users update', () => sb.t.env, [
    {
      name: 'updated',
      before: async () =>
        void (await call(sb.t, 'POST', '/connector/users', { externalId: 'u-1', token: 't', market: 'SE' })),
      args: ['u-1', '--user-token-stdin', '--blocked'],
      stdin: 't\n',
      code: 0,
      stderr: ['updated user u-1', not('warning')],
    },
    {
      name: 'an unknown user is refused (3, as the service answers)',
      args: ['ghost', '--user-token-stdin'],
      stdin: 't\n',
      code: 3,
      stderr: '401',
    },
  ]);
});

test('--user-token on the command line warns (spawned)', async () => {
  const r = await spawnCli(['connector', 'users', 'update', 'u-1', '--user-token', 'tok-visible', '--no-blocked'], {
    env: sb.t.env,
  });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain('warning: --user-token on the command line is visible to other users in the process list');
});
