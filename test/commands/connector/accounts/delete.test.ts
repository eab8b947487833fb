import { describe } from 'vitest';
import { newCmdDelete } from '../../../../src/commands/connector/accounts/delete.js';
import { cliCases, optionCases, useSandbox } from '../../../helpers/commands.js';
import { userWithAccounts } from '../../../connector/helpers.js';

const sb = useSandbox();

describe('connector accounts delete', () => {
  optionCases('connector accounts delete', newCmdDelete, [
    {
      name: 'an account of a user',
      args: ['--yes', 'acc-1', '--user', 'alice'],
      options: { user: 'alice', accountId: 'acc-1' },
    },
    { name: 'no user', args: ['--yes', 'acc-1'], code: 2, stderr: 'which user?' },
  ]);
  cliCases('connector accounts delete', () => sb.t.env, [
    {
      name: 'deleted',
      before: () => userWithAccounts(sb.t, 'del-1', 1),
      args: ['--yes', 'acc-0', '--user', 'del-1'],
      code: 0,
      stderr: 'deleted account acc-0',
    },
    { name: 'deleted already is 4', args: ['--yes', 'acc-0', '--user', 'del-1'], code: 4 },
  ]);
});
