import { describe, expect } from 'vitest';
import { newCmdList } from '../../../src/commands/loans/list.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ months: 2 });

describe('loans list', () => {
  optionCases('loans list', newCmdList, [{ name: 'takes no flags of its own', args: [], options: {} }]);
  cliCases('loans list', () => sb.env, [
    {
      name: '-o json is the whole LoanResponse, amounts exact',
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => {
        const r = JSON.parse(out);
        expect(r.loans).toHaveLength(2);
        expect(typeof r.totalLoanAmount).toBe('number');
        expect(out).toMatch(/"totalLoanAmount": -?\d+\.\d{2},/);
      },
    },
    {
      name: 'a table, with the total and the weighted interest on stderr',
      args: ['-o', 'table'],
      code: 0,
      stdout: [/Mortgage/, /-\d+\.\d{2} SEK/],
      stderr: /total -\d+\.\d{2} SEK, weighted average interest 0\.\d+/,
    },
    {
      name: 'csv: one row per loan',
      args: ['-o', 'csv'],
      code: 0,
      stdout: /^name,type,balance,currency,interest,account,loanNumber\r\n/,
    },
  ]);
});
