import { describe } from 'vitest';
import { newCmdDelete } from '../../../src/commands/users/delete.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox();
let userId = '';

describe('users delete', () => {
  optionCases('users delete', newCmdDelete, [
    { name: 'the user from --user', args: ['--yes', '--user', 'u1'], options: { user: { userId: 'u1' } } },
    {
      name: 'by external id',
      args: ['--yes', '--external-user', 'alice'],
      options: { user: { externalUserId: 'alice' } },
    },
    { name: 'no user', args: ['--yes'], code: 2, stderr: 'which user? pass --user ID or --external-user ID' },
  ]);
  cliCases('users delete', () => sb.env, [
    {
      name: 'deletes the user',
      before: async () => {
        userId = JSON.parse(
          (await runCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env: sb.env })).stdout,
        ).user_id;
      },
      args: () => ['--yes', '--user', userId],
      code: 0,
      stderr: /deleted user [0-9a-f]{32}/,
    },
    { name: 'a user deleted already is 4', args: () => ['--yes', '--user', userId], code: 4 },
  ]);
});
