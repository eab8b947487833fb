import { describe, expect } from 'vitest';
import { newCmdUpdate } from '../../../src/commands/accounts/update.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { addAccount } from '../../helpers/store-fixtures.js';

const sb = useSandbox({ user: true });
let id = '';

describe('accounts update: flags', () => {
  optionCases('accounts update', newCmdUpdate, [
    {
      name: 'name, type and exclusion, upper-cased',
      args: ['a1', '--name', 'Bills', '--type', 'savings', '--exclusion', 'pfm_data', '--no-favored'],
      options: { id: 'a1', update: { name: 'Bills', type: 'SAVINGS', accountExclusion: 'PFM_DATA', favored: false } },
    },
    { name: 'nothing to update', args: ['a1'], code: 2, stderr: 'nothing to update' },
    { name: 'an empty name', args: ['a1', '--name', ' '], code: 2, stderr: '--name must not be empty' },
    { name: 'an unknown type', args: ['a1', '--type', 'PIGGYBANK'], code: 2, stderr: '--type must be one of' },
    {
      name: 'an unknown exclusion',
      args: ['a1', '--exclusion', 'EVERYTHING'],
      code: 2,
      stderr: '--exclusion must be one of',
    },
  ]);
});

describe('accounts update: output', () => {
  cliCases('accounts update', () => sb.env, [
    {
      name: 'the updated account',
      before: () => void (id = addAccount(sb.t.sandbox.store, sb.userId).id),
      args: () => [id, '--name', 'Bills', '--favored', '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toEqual(expect.objectContaining({ id, name: 'Bills', favored: true })),
    },
    { name: 'an unknown account is 4', args: ['f'.repeat(32), '--name', 'x'], code: 4 },
  ]);
});
