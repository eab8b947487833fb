import { describe, expect } from 'vitest';
import { newCmdList } from '../../../src/commands/insights/list.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ months: 3 });

describe('insights list', () => {
  optionCases('insights list', newCmdList, [{ name: 'takes no flags of its own', args: [], options: {} }]);
  cliCases('insights list', () => sb.env, [
    {
      name: 'json: the active insights with the actions they offer',
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => {
        const list = JSON.parse(out);
        expect(list.length).toBeGreaterThan(0);
        expect(list[0]).toMatchObject({ id: expect.any(String), type: expect.any(String) });
      },
    },
    {
      name: 'csv lists the action types of each insight',
      args: ['-o', 'csv'],
      code: 0,
      stdout: [/^id,type,title,actions,created\r\n/, /ACKNOWLEDGE|DISMISS/],
    },
  ]);
});
