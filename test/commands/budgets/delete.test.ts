import { describe } from 'vitest';
import { newCmdDelete } from '../../../src/commands/budgets/delete.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let id = '';

describe('budgets delete', () => {
  optionCases('budgets delete', newCmdDelete, [{ name: 'an id', args: ['b1', '--yes'], options: { id: 'b1' } }]);
  cliCases('budgets delete', () => sb.env, [
    {
      name: 'deleted',
      before: async () => {
        const r = await runCli(
          ['budgets', 'create-recurring', '--name', 'x', '--amount', '1', '--currency', 'SEK', '-o', 'json'],
          { env: sb.env },
        );
        id = JSON.parse(r.stdout).id;
      },
      args: () => [id, '--yes'],
      code: 0,
      stderr: /deleted budget [0-9a-f]{32}/,
      after: async () => {
        const r = await runCli(['budgets', 'list', '--include-archived', '-o', 'json'], { env: sb.env });
        if (r.stdout.trim() !== '[]') throw new Error(`left: ${r.stdout}`);
      },
    },
    { name: 'deleted already is 4', args: () => [id, '--yes'], code: 4 },
    { name: 'without --yes and no terminal: refused, exit 2', args: ['b1'], code: 2, stderr: /refusing without --yes/ },
  ]);
});
