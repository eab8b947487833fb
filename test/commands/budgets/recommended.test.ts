import { describe, expect } from 'vitest';
import { newCmdRecommended } from '../../../src/commands/budgets/recommended.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ months: 3 });

describe('budgets recommended', () => {
  optionCases('budgets recommended', newCmdRecommended, [{ name: 'takes no flags of its own', args: [], options: {} }]);
  cliCases('budgets recommended', () => sb.env, [
    {
      name: 'json: suggestions with exact amounts',
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)[0]).toMatchObject({ amount: { currencyCode: 'SEK' }, periodicityType: 'RECURRING' }),
    },
    { name: 'a table with the average spent', args: ['-o', 'table'], code: 0, stdout: ['AVERAGE SPENT', / SEK/] },
  ]);
});
