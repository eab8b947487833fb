import { describe } from 'vitest';
import { newCmdDelete } from '../../../src/commands/webhooks/delete.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox();
let id = '';

describe('webhooks delete', () => {
  optionCases('webhooks delete', newCmdDelete, [{ name: 'an id', args: ['--yes', 'w1'], options: { id: 'w1' } }]);
  cliCases('webhooks delete', () => sb.t.env, [
    {
      name: 'deleted',
      before: async () => {
        const r = await runCli(
          [
            'webhooks',
            'create',
            '--url',
            'https://hooks.example.com/in',
            '--event',
            'credentials:update',
            '--secret-stdin',
            '-o',
            'json',
          ],
          { env: sb.t.env, stdin: 's\n' },
        );
        id = JSON.parse(r.stdout).id;
      },
      args: () => ['--yes', id],
      code: 0,
      stderr: /deleted webhook [0-9a-f]+/,
    },
    { name: 'deleted already is 4', args: () => ['--yes', id], code: 4 },
  ]);
});
