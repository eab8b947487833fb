import { describe } from 'vitest';
import { newCmdUpdate } from '../../../../src/commands/connector/accounts/update.js';
import { cliCases, optionCases, useSandbox } from '../../../helpers/commands.js';
import { userWithAccounts } from '../../../connector/helpers.js';

const sb = useSandbox();

describe('connector accounts update', () => {
  optionCases('connector accounts update', newCmdUpdate, [
    {
      name: 'close and exclude',
      args: ['acc-1', '--user', 'alice', '--closed', '--exclusion', 'PFM_DATA'],
      options: { user: 'alice', accountId: 'acc-1', update: { closed: true, exclusion: 'PFM_DATA' } },
    },
    {
      name: 'the user from the global --user',
      args: ['acc-1', '--name', 'x', '--user', 'bob'],
      options: { user: 'bob' },
    },
    { name: 'nothing to update', args: ['acc-1', '--user', 'u'], code: 2, stderr: 'nothing to update' },
    {
      name: 'an unknown exclusion',
      args: ['acc-1', '--user', 'u', '--exclusion', 'ALL'],
      code: 2,
      stderr: '--exclusion must be one of',
    },
    {
      name: 'an empty name',
      args: ['acc-1', '--user', 'u', '--name', ''],
      code: 2,
      stderr: '--name must not be empty',
    },
  ]);
  cliCases('connector accounts update', () => sb.t.env, [
    {
      name: 'updated',
      before: () => userWithAccounts(sb.t, 'up-1', 1),
      args: ['acc-0', '--user', 'up-1', '--name', 'Household', '--closed'],
      code: 0,
      stderr: 'updated account acc-0',
    },
    { name: 'an unknown account is 4', args: ['nope', '--user', 'up-1', '--name', 'x'], code: 4 },
  ]);
});
