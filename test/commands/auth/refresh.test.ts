import { describe } from 'vitest';
import { newCmdRefresh } from '../../../src/commands/auth/refresh.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });

describe('auth refresh', () => {
  optionCases('auth refresh', newCmdRefresh, [
    { name: 'from the profile', args: [], options: { refreshTokenStdin: false } },
    { name: 'from stdin', args: ['--refresh-token-stdin'], options: { refreshTokenStdin: true } },
  ]);
  cliCases('auth refresh', () => sb.env, [
    {
      name: 'no refresh token in the profile: where one comes from',
      args: [],
      code: 2,
      stderr: ['no refresh token in this profile', '`bankctl auth link`'],
    },
    {
      name: 'a refresh token the service does not know',
      args: ['--refresh-token-stdin'],
      stdin: 'bogus-refresh\n',
      code: 2,
    },
  ]);
});
