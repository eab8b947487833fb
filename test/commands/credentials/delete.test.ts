import { describe } from 'vitest';
import { newCmdDelete } from '../../../src/commands/credentials/delete.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, connectTestBank, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let id = '';

describe('credentials delete', () => {
  optionCases('credentials delete', newCmdDelete, [{ name: 'an id', args: ['--yes', 'c1'], options: { id: 'c1' } }]);
  cliCases('credentials delete', () => sb.env, [
    {
      name: 'deleted, and its accounts with it',
      before: async () => void (id = await connectTestBank(sb.env)),
      args: () => ['--yes', id],
      code: 0,
      stderr: /deleted credentials [0-9a-f]{32}/,
      after: async () => {
        const r = await runCli(['accounts', 'list', '-o', 'json'], { env: sb.env });
        if (r.stdout.trim() !== '[]') throw new Error(`accounts left: ${r.stdout}`);
      },
    },
    { name: 'deleted already is 4', args: () => ['--yes', id], code: 4 },
  ]);
});
