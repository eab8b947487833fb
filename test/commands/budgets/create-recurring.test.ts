import { describe, expect } from 'vitest';
import { newCmdCreateRecurring } from '../../../src/commands/budgets/create-recurring.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
const base = ['--name', 'Coffee', '--amount', '400.50', '--currency', 'sek'];

describe('budgets create-recurring: flags', () => {
  optionCases('budgets create-recurring', newCmdCreateRecurring, [
    {
      name: 'the amount exact, a month by default, the filter from the flags',
      args: [...base, '--category', 'expenses:food.coffee', '--tag', '#fika', '--text', 'espresso'],
      options: {
        request: {
          name: 'Coffee',
          amount: { unscaledValue: 40050, scale: 2, currencyCode: 'SEK' },
          filter: {
            categories: [{ code: 'expenses:food.coffee' }],
            tags: [{ key: 'fika' }],
            freeTextQuery: 'espresso',
          },
          recurringPeriodicity: { periodUnit: 'MONTH' },
        },
      },
    },
    {
      name: '--data merged over the flags',
      args: [...base, '--data', '{"name": "From data"}'],
      options: { request: { name: 'From data' } },
    },
    {
      name: 'an amount of zero',
      args: ['--name', 'x', '--amount', '0', '--currency', 'SEK'],
      code: 2,
      stderr: '--amount must be greater than zero',
    },
    {
      name: 'more digits than a double holds',
      args: ['--name', 'x', '--amount', '12345678901234567', '--currency', 'SEK'],
      code: 2,
      stderr: 'too many digits',
    },
    // the limit the message states, whichever side of 2^53 the value lies (both were 16 digits:
    // one taken, one refused)
    {
      name: 'sixteen digits under 2^53',
      args: ['--name', 'x', '--amount', '1234567890123456', '--currency', 'SEK'],
      code: 2,
      stderr: '--amount has too many digits (at most 15, decimals included)',
    },
    {
      name: 'sixteen digits with decimals',
      args: ['--name', 'x', '--amount', '12345678901234.56', '--currency', 'SEK'],
      code: 2,
      stderr: 'at most 15, decimals included',
    },
    {
      name: 'an income category',
      args: [...base, '--category', 'income:salary'],
      code: 2,
      stderr: '--category takes an expense category code',
    },
    {
      name: 'an unknown period',
      args: [...base, '--period', 'DAY'],
      code: 2,
      stderr: 'error: --period must be one of WEEK, MONTH, YEAR, got "DAY"\n',
    },
    {
      name: '--data that is not an object',
      args: [...base, '--data', '[1]'],
      code: 2,
      stderr: '--data must be a JSON object',
    },
  ]);
});

describe('budgets create-recurring: output', () => {
  cliCases('budgets create-recurring', () => sb.env, [
    {
      name: 'json: the budget as created, exact',
      args: [...base, '--period', 'WEEK', '-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toMatchObject({
          name: 'Coffee',
          amount: { unscaledValue: 40050, scale: 2, currencyCode: 'SEK' },
          periodicityType: 'RECURRING',
          recurringPeriodicity: { periodUnit: 'WEEK' },
        }),
    },
    {
      name: 'a table: one readable budget',
      args: [...base, '-o', 'table'],
      code: 0,
      stdout: ['400.50 SEK', 'every month', 'all expenses'],
    },
  ]);
});
