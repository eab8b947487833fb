import { describe, expect } from 'vitest';
import { newCmdList } from '../../../src/commands/investments/list.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ months: 2 });

describe('investments list', () => {
  optionCases('investments list', newCmdList, [
    {
      name: 'types upper-cased, repeatable and comma-separated',
      args: ['--portfolio-type', 'isk,kf', '--portfolio-type', 'PENSION'],
      options: { portfolioTypes: ['ISK', 'KF', 'PENSION'] },
    },
    { name: 'an unknown type', args: ['--portfolio-type', 'GOLD'], code: 2, stderr: '--portfolio-type must be one of' },
  ]);
  cliCases('investments list', () => sb.env, [
    {
      name: 'csv: the header and ISK portfolios',
      args: ['--portfolio-type', 'isk', '-o', 'csv'],
      code: 0,
      stdout: [/^id,type,account,totalValue,totalValue_currency,cash,cash_currency,instruments\r\n/, ',ISK,'],
    },
    {
      name: 'json keeps the exact values: numbers, written with the digits sent',
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => {
        expect(typeof JSON.parse(out)[0].totalValue).toBe('number');
        expect(out).toMatch(/"totalValue": \d+\.\d{2},/);
      },
    },
    { name: 'a table shows the value with its currency', args: ['-o', 'table'], code: 0, stdout: / \d+\.\d{2} SEK/ },
  ]);
});
