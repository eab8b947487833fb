import { describe, expect, test } from 'vitest';
import { newCmdDetails } from '../../../src/commands/budgets/details.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { COFFEE, coffee } from './shared.js';
import { runWithAnswer } from '../../helpers/scripted-server.js';

const sb = useSandbox({ user: true });
let id = '';

describe('budgets details: flags', () => {
  optionCases('budgets details', newCmdDetails, [
    { name: 'no range: now', args: ['b1'], options: { id: 'b1', start: undefined, end: undefined } },
    {
      name: 'a range',
      args: ['b1', '--start', '2026-01-01', '--end', '2026-06-30'],
      options: { start: Date.UTC(2026, 0, 1), end: Date.UTC(2026, 5, 30) },
    },
    {
      name: 'start after end',
      args: ['b1', '--start', '2026-07-01', '--end', '2026-06-30'],
      code: 2,
      stderr: '--start is after --end',
    },
  ]);
});

describe('budgets details: output', () => {
  cliCases('budgets details', () => sb.env, [
    {
      name: 'a table of the periods with spent against target, and the totals on stderr',
      before: async () => {
        coffee(sb.t.sandbox.store, sb.userId, [
          ['2026-03-03', '-45.50'],
          ['2026-03-10', '-30.25'],
          ['2026-04-02', '-12.00'],
        ]);
        const r = await runCli(
          [
            'budgets',
            'create-one-off',
            '--name',
            'March coffee',
            '--amount',
            '100',
            '--currency',
            'SEK',
            '--start',
            '2026-03-01',
            '--end',
            '2026-03-31',
            '--category',
            COFFEE,
            '-o',
            'json',
          ],
          { env: sb.env },
        );
        id = JSON.parse(r.stdout).id;
      },
      args: () => [id, '-o', 'table'],
      code: 0,
      stdout: ['2026-03-01 to 2026-03-31', '75.75 SEK', '100 SEK', /75% \[█{15}░{5}\]/],
      stderr: /March coffee \(expenses:food\.coffee\): total 75\.75 SEK/,
    },
    {
      name: 'json is the whole BudgetDetails',
      args: () => [id, '-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out).totalSpentAmount).toEqual({ unscaledValue: 7575, scale: 2, currencyCode: 'SEK' }),
    },
    { name: 'an unknown budget is 4', args: ['f'.repeat(32)], code: 4 },
  ]);
});

describe('budgets details: an answer with only what the reference requires', () => {
  // GetBudgetDetailsResponse: only averageSpentAmount and totalSpentAmount are required
  const amounts = {
    totalSpentAmount: { currencyCode: 'EUR', scale: 2, unscaledValue: 12345 },
    averageSpentAmount: { currencyCode: 'EUR', scale: 2, unscaledValue: 4115 },
  };
  test.each(['table', 'csv'])('-o %s: no periods, no budget: the totals, exit 0', async (format) => {
    const r = await runWithAnswer(amounts, ['budgets', 'details', 'b1', '-o', format], sb.env.BANKCTL_CONFIG_DIR!);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('budget b1: total 123.45 EUR, average 41.15 EUR per period');
    expect(r.stderr).not.toContain('unexpected');
  });

  test('periods without the budget: each period, the target left empty', async () => {
    const body = {
      ...amounts,
      budgetPeriods: [
        { start: Date.UTC(2026, 0, 1), end: Date.UTC(2026, 0, 31), spentAmount: amounts.totalSpentAmount },
      ],
    };
    const r = await runWithAnswer(body, ['budgets', 'details', 'b1', '-o', 'csv'], sb.env.BANKCTL_CONFIG_DIR!);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')[1]).toMatch(/^2026-01-01,2026-01-31,123\.45,/);
  });

  test('periods that are not a list are exit 7', async () => {
    const r = await runWithAnswer(
      { ...amounts, budgetPeriods: {} },
      ['budgets', 'details', 'b1'],
      sb.env.BANKCTL_CONFIG_DIR!,
    );
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('budgetPeriods that is not a list');
  });
});
