import { describe, expect } from 'vitest';
import { newCmdArchived } from '../../../src/commands/insights/archived.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ months: 3 });
let archivedId = '';

describe('insights archived', () => {
  optionCases('insights archived', newCmdArchived, [{ name: 'takes no flags of its own', args: [], options: {} }]);
  cliCases('insights archived', () => sb.env, [
    { name: 'none before one is acted on', args: ['-o', 'json'], code: 0, stdout: /^\[\]\n$/ },
    {
      name: 'an insight acted on is archived with its action',
      before: async () => {
        const list = JSON.parse((await runCli(['insights', 'list', '-o', 'json'], { env: sb.env })).stdout);
        archivedId = list[0].id;
        const action = list[0].insightActions[0].data.type;
        await runCli(['insights', 'action', archivedId, '--action', action], { env: sb.env });
      },
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toEqual([expect.objectContaining({ id: archivedId })]),
    },
    { name: 'a table', args: ['-o', 'table'], code: 0, stdout: ['ACTION', 'ARCHIVED'] },
  ]);
});
