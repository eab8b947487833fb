import { describe, expect } from 'vitest';
import { newCmdGet } from '../../../src/commands/reports/get.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ months: 1 });
let id = '';

describe('reports get', () => {
  optionCases('reports get', newCmdGet, [
    { name: 'an id', args: ['r1'], options: { id: 'r1' } },
    { name: 'the id is required', args: [], code: 2 },
  ]);
  cliCases('reports get', () => sb.env, [
    {
      name: 'json: the report as created',
      before: async () => {
        id = JSON.parse((await runCli(['reports', 'create', '-o', 'json'], { env: sb.env })).stdout).id;
      },
      args: () => [id, '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toMatchObject({ id, userId: sb.userId }),
    },
    {
      name: 'a table with ISO times',
      args: () => [id, '-o', 'table'],
      code: 0,
      stdout: /created\s+\d{4}-\d{2}-\d{2}T/,
    },
    { name: 'an unknown report is 4', args: ['f'.repeat(32)], code: 4 },
  ]);
});
