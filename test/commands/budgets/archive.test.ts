import { describe, expect } from 'vitest';
import { newCmdArchive } from '../../../src/commands/budgets/archive.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let id = '';

describe('budgets archive', () => {
  optionCases('budgets archive', newCmdArchive, [{ name: 'an id', args: ['b1'], options: { id: 'b1' } }]);
  cliCases('budgets archive', () => sb.env, [
    {
      name: 'archived: the budget says so',
      before: async () => {
        const r = await runCli(
          ['budgets', 'create-recurring', '--name', 'x', '--amount', '1', '--currency', 'SEK', '-o', 'json'],
          { env: sb.env },
        );
        id = JSON.parse(r.stdout).id;
      },
      args: () => [id, '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toMatchObject({ id, archived: true }),
    },
    { name: 'an unknown budget is 4', args: ['f'.repeat(32)], code: 4 },
  ]);
});
