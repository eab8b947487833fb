import { describe } from 'vitest';
import { newCmdDelete } from '../../../../src/commands/connector/users/delete.js';
import { cliCases, optionCases, useSandbox } from '../../../helpers/commands.js';
import { call } from '../../../connector/helpers.js';

const sb = useSandbox();

describe('connector users delete', () => {
  optionCases('connector users delete', newCmdDelete, [
    { name: 'a user', args: ['--yes', 'alice'], options: { externalUserId: 'alice' } },
  ]);
  cliCases('connector users delete', () => sb.t.env, [
    {
      name: 'deleted',
      before: async () =>
        void (await call(sb.t, 'POST', '/connector/users', { externalId: 'd-1', token: 't', market: 'SE' })),
      args: ['--yes', 'd-1'],
      code: 0,
      stderr: 'deleted user d-1',
    },
    { name: 'deleted already (3, as the service answers)', args: ['--yes', 'd-1'], code: 3 },
  ]);
});
