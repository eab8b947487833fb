import { describe, expect } from 'vitest';
import { newCmdBalances } from '../../../src/commands/accounts/balances.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { addAccount } from '../../helpers/store-fixtures.js';

const sb = useSandbox({ user: true });
let id = '';

describe('accounts balances', () => {
  optionCases('accounts balances', newCmdBalances, [
    { name: 'an account id', args: ['a1'], options: { id: 'a1' } },
    { name: 'the id is required', args: [], code: 2 },
  ]);
  cliCases('accounts balances', () => sb.env, [
    {
      name: 'csv: one row per kind of balance, exact',
      before: () => void (id = addAccount(sb.t.sandbox.store, sb.userId, { balance: '1234.56' }).id),
      args: () => [id, '-o', 'csv'],
      code: 0,
      stdout: [/^kind,amount,currency,refreshed\r\n/, /booked,1234\.56,SEK,\d{4}-\d\d-\d\dT/],
    },
    {
      name: 'json: the balances object as returned',
      args: () => [id, '-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toMatchObject({ accountId: id, balances: { booked: expect.any(Object) } }),
    },
    { name: 'an unknown account is 4', args: ['nope'], code: 4 },
  ]);
});
