import { describe, expect } from 'vitest';
import { newCmdUpdate } from '../../../src/commands/budgets/update.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let recurring = '';
let oneOff = '';

describe('budgets update: flags', () => {
  optionCases('budgets update', newCmdUpdate, [
    {
      name: 'the flags as given (they depend on the budget)',
      args: ['b1', '--amount', '80.5', '--period', 'week'],
      options: { id: 'b1', flags: { amount: '80.5', period: 'week' } },
    },
  ]);
});

describe('budgets update: output', () => {
  cliCases('budgets update', () => sb.env, [
    {
      name: 'what is not given is kept',
      before: async () => {
        const r = await runCli(
          [
            'budgets',
            'create-recurring',
            '--name',
            'Coffee',
            '--amount',
            '400',
            '--currency',
            'SEK',
            '--category',
            'expenses:food.coffee',
            '-o',
            'json',
          ],
          { env: sb.env },
        );
        recurring = JSON.parse(r.stdout).id;
        const o = await runCli(
          [
            'budgets',
            'create-one-off',
            '--name',
            'Trip',
            '--amount',
            '9000',
            '--currency',
            'SEK',
            '--start',
            '2026-06-01',
            '--end',
            '2026-08-31',
            '-o',
            'json',
          ],
          { env: sb.env },
        );
        oneOff = JSON.parse(o.stdout).id;
      },
      args: () => [recurring, '--amount', '80.5', '-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toMatchObject({
          name: 'Coffee',
          amount: { unscaledValue: 805, scale: 1, currencyCode: 'SEK' },
          filter: { categories: [{ code: 'expenses:food.coffee' }] },
          recurringPeriodicity: { periodUnit: 'MONTH' },
        }),
    },
    {
      name: 'dates on a recurring budget',
      args: () => [recurring, '--start', '2026-01-01'],
      code: 2,
      stderr: '--start and --end apply to one-off budgets',
    },
    {
      name: 'a period on a one-off budget',
      args: () => [oneOff, '--period', 'WEEK'],
      code: 2,
      stderr: '--period applies to recurring budgets',
    },
    {
      name: 'new dates on a one-off budget',
      args: () => [oneOff, '--end', '2026-09-30', '-o', 'table'],
      code: 0,
      stdout: '2026-06-01 to 2026-09-30',
    },
    { name: 'an unknown budget is 4', args: ['nope', '--amount', '1'], code: 4, stderr: 'budget nope not found' },
  ]);
});
