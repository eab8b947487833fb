import { describe, expect } from 'vitest';
import { newCmdList } from '../../../src/commands/accounts/list.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { addAccount } from '../../helpers/store-fixtures.js';

const sb = useSandbox({ user: true });
const exact = () => void addAccount(sb.t.sandbox.store, sb.userId, { name: 'Exact', balance: '-0.05' });

describe('accounts list', () => {
  optionCases('accounts list', newCmdList, [{ name: 'takes no flags of its own', args: [], options: {} }]);
  cliCases('accounts list', () => sb.env, [
    {
      name: 'a table with the exact balance and its currency',
      before: exact,
      args: ['-o', 'table'],
      code: 0,
      stdout: [/Exact/, /-0\.05 SEK/],
    },
    {
      name: 'csv with a header',
      args: ['-o', 'csv'],
      code: 0,
      stdout: [/^id,name,type,number,balance,currency,exclusion,favored\r\n/, ',-0.05,SEK,'],
    },
    {
      name: 'json keeps every account',
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toEqual([expect.objectContaining({ name: 'Exact' })]),
    },
    { name: 'without a user: a usage error', args: [], env: { BANKCTL_USER: undefined }, code: 2, stderr: '--user' },
  ]);
});
