import { describe, expect } from 'vitest';
import { newCmdList } from '../../../src/commands/budgets/list.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let archived = '';

describe('budgets list', () => {
  optionCases('budgets list', newCmdList, [
    { name: 'current budgets', args: [], options: { includeArchived: false } },
    { name: 'archived too', args: ['--include-archived'], options: { includeArchived: true } },
  ]);
  cliCases('budgets list', () => sb.env, [
    {
      name: 'csv with no budgets yet: the same header as with some (target and its currency)',
      args: ['-o', 'csv'],
      code: 0,
      stdout: (out) => expect(out).toBe('id,name,target,currency,period,filter,archived\r\n'),
    },
    {
      name: 'a table with the target and the period',
      before: async () => {
        await runCli(
          [
            'budgets',
            'create-recurring',
            '--name',
            'Food',
            '--amount',
            '6000',
            '--currency',
            'SEK',
            '--category',
            'expenses:food',
          ],
          { env: sb.env },
        );
        const b = await runCli(
          ['budgets', 'create-recurring', '--name', 'Old', '--amount', '1', '--currency', 'SEK', '-o', 'json'],
          { env: sb.env },
        );
        archived = JSON.parse(b.stdout).id;
        await runCli(['budgets', 'archive', archived], { env: sb.env });
      },
      args: ['-o', 'table'],
      code: 0,
      stdout: ['Food', '6000 SEK', 'every month', 'expenses:food'],
    },
    {
      name: 'archived ones only with --include-archived',
      args: ['--include-archived', '-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(
          JSON.parse(out)
            .map((b: { name: string }) => b.name)
            .sort(),
        ).toEqual(['Food', 'Old']),
    },
    {
      name: 'csv with budgets: the same header',
      args: ['-o', 'csv'],
      code: 0,
      stdout: (out) => expect(out.split('\r\n')[0]).toBe('id,name,target,currency,period,filter,archived'),
    },
    {
      name: 'without: the current ones',
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out).map((b: { name: string }) => b.name)).toEqual(['Food']),
    },
  ]);
});
