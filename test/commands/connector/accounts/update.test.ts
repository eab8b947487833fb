import { describe, expect } from 'vitest';
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
      stderr: '--exclusion must be one of PFM_AND_SEARCH, PFM_DATA, NONE, got "ALL"',
    },
    {
      name: 'a new type and an exact credit',
      args: ['card-1', '--user', 'u', '--type', 'credit_card', '--available-credit', '20000.10'],
      options: { update: { type: 'CREDIT_CARD', availableCredit: '20000.10' } },
    },
    {
      name: 'an unknown type',
      args: ['a', '--user', 'u', '--type', 'GOLD'],
      code: 2,
      stderr: /--type must be one of CHECKING, .*, got "GOLD"/,
    },
    {
      name: 'a credit that is no decimal',
      args: ['a', '--user', 'u', '--available-credit', '2e4'],
      code: 2,
      stderr: '--available-credit must be a decimal',
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
    {
      // before, the type and the credit could not be changed (and the sandbox ignored them with 204)
      name: 'retyped, with an exact available credit, as the reference allows',
      args: ['acc-0', '--user', 'up-1', '--type', 'CREDIT_CARD', '--available-credit', '12345678901234567.05'],
      code: 0,
      after: async () => {
        const a = [...sb.t.sandbox.store.accounts.values()].find(
          (x) => x.externalId === 'acc-0' && x.name === 'Household',
        )!;
        expect(a).toMatchObject({ type: 'CREDIT_CARD', availableCredit: '12345678901234567.05' });
      },
    },
    { name: 'an unknown account is 4', args: ['nope', '--user', 'up-1', '--name', 'x'], code: 4 },
  ]);
});
