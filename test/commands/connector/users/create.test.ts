import { describe, expect, test } from 'vitest';
import { newCmdCreate } from '../../../../src/commands/connector/users/create.js';
import { spawnCli } from '../../../helpers/cli.js';
import { cliCases, not, optionCases, useSandbox } from '../../../helpers/commands.js';

const sb = useSandbox();

describe('connector users create: flags', () => {
  optionCases('connector users create', newCmdCreate, [
    {
      name: 'the token from stdin',
      args: ['--external-id', 'alice', '--user-token-stdin', '--market', 'se', '--label', 'vip', '--blocked'],
      stdin: 'tok-1\n',
      options: { user: { externalId: 'alice', token: 'tok-1', market: 'SE', label: 'vip', blocked: true } },
      stderr: not('warning'),
    },
    {
      name: 'the token on the command line works, with a warning',
      args: ['--external-id', 'alice', '--user-token', 'tok-2', '--market', 'SE'],
      options: { user: { token: 'tok-2' } },
      stderr:
        'warning: --user-token on the command line is visible to other users in the process list; use --user-token-stdin instead',
    },
    {
      name: 'no token',
      args: ['--external-id', 'a', '--market', 'SE'],
      code: 2,
      stderr: ['--user-token is required', '--user-token-stdin'],
    },
    {
      name: 'both',
      args: ['--external-id', 'a', '--market', 'SE', '--user-token', 't', '--user-token-stdin'],
      stdin: 't\n',
      code: 2,
      stderr: 'not both',
    },
    {
      name: 'no market',
      args: ['--external-id', 'a', '--user-token-stdin'],
      stdin: 't\n',
      code: 2,
      stderr: '--market is required',
    },
    {
      name: 'an unknown market, before stdin is read',
      args: ['--external-id', 'a', '--user-token-stdin', '--market', 'XX'],
      code: 2,
      stderr: 'unknown market "XX"',
    },
    {
      name: 'an empty stdin',
      args: ['--external-id', 'a', '--user-token-stdin', '--market', 'SE'],
      stdin: '',
      code: 2,
      stderr: 'nothing was read',
    },
  ]);
});

describe('connector users create: output', () => {
  cliCases('connector users create', () => sb.t.env, [
    {
      name: 'activated',
      args: ['--external-id', 'c-1', '--user-token-stdin', '--market', 'SE'],
      stdin: 't-1\n',
      code: 0,
      stderr: ['activated user c-1', not('warning')],
    },
    {
      name: 'again is 5, in one line',
      args: ['--external-id', 'c-1', '--user-token-stdin', '--market', 'SE'],
      stdin: 't-1\n',
      code: 5,
      stderr: (err) => {
        expect(err).toMatch(/409.*already exists/);
        expect(err.trim().split('\n')).toHaveLength(err.includes('hint') ? 2 : 1);
      },
    },
    {
      name: 'a wrong connector token is 3',
      args: ['--external-id', 'c-2', '--user-token-stdin', '--market', 'SE'],
      stdin: 't\n',
      env: { BANKCTL_CONNECTOR_TOKEN: 'wrong', BANKCTL_CLIENT_SECRET: 'wrong' },
      code: 3,
    },
  ]);
});

// issue 16: a secret passed as a flag warns, through the spawned CLI
test('--user-token on the command line warns and names --user-token-stdin (spawned)', async () => {
  const r = await spawnCli(
    ['connector', 'users', 'create', '--external-id', 'spawned', '--user-token', 'tok-spawned', '--market', 'SE'],
    {
      env: sb.t.env,
    },
  );
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain(
    'warning: --user-token on the command line is visible to other users in the process list; use --user-token-stdin instead',
  );
  expect(r.stderr).not.toContain('tok-spawned');
});
