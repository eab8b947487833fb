import { describe, expect } from 'vitest';
import { newCmdTransactions } from '../../../src/commands/budgets/transactions.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { COFFEE, coffee } from './shared.js';

const sb = useSandbox({ user: true });
let id = '';

describe('budgets transactions: flags', () => {
  optionCases('budgets transactions', newCmdTransactions, [
    {
      name: 'an inclusive range',
      args: ['b1', '--start', '2026-03-01', '--end', '2026-03-31'],
      options: { id: 'b1', start: Date.UTC(2026, 2, 1), end: Date.UTC(2026, 3, 1) - 1 },
    },
    {
      name: 'the range is required',
      args: ['b1', '--start', '2026-03-01'],
      code: 2,
      stderr: 'error: --end is required (to (inclusive), YYYY-MM-DD or epoch ms)\n',
    },
  ]);
});

describe('budgets transactions: output', () => {
  cliCases('budgets transactions', () => sb.env, [
    {
      name: "the budget's transactions in the range, amounts exact",
      before: async () => {
        coffee(sb.t.sandbox.store, sb.userId, [
          ['2026-03-03', '-45.50'],
          ['2026-04-02', '-12.00'],
        ]);
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
            COFFEE,
            '-o',
            'json',
          ],
          { env: sb.env },
        );
        id = JSON.parse(r.stdout).id;
      },
      args: () => [id, '--start', '2026-03-01', '--end', '2026-03-31', '-o', 'csv'],
      code: 0,
      stdout: [
        /^date,description,amount,currency,category,pending,account,id\r\n/,
        '2026-03-03,Espresso House,-45.50,SEK,expenses:food.coffee,false,',
        (out) => expect(out).not.toContain('2026-04-02'),
      ],
    },
  ]);
});
