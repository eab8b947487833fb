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
    {
      // before: "no refresh token in this profile ... or pass --refresh-token-stdin", the flag given
      name: 'nothing on stdin: said as such',
      args: ['--refresh-token-stdin'],
      stdin: '',
      code: 2,
      stderr: '--refresh-token-stdin: nothing was read from standard input',
    },
  ]);
});
