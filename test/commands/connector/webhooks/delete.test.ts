import { describe } from 'vitest';
import { newCmdDelete } from '../../../../src/commands/connector/webhooks/delete.js';
import { cliCases, optionCases, useSandbox } from '../../../helpers/commands.js';
import { call } from '../../../connector/helpers.js';

const sb = useSandbox();
let id = '';

describe('connector webhooks delete', () => {
  optionCases('connector webhooks delete', newCmdDelete, [
    { name: 'an id', args: ['w1', '--yes'], options: { id: 'w1' } },
  ]);
  cliCases('connector webhooks delete', () => sb.t.env, [
    {
      name: 'deleted',
      before: async () => {
        await call(sb.t, 'POST', '/connector/webhooks', {
          url: 'https://hooks.example.com/in',
          secret: 's',
          events: ['transaction:create'],
        });
        id = (await call(sb.t, 'GET', '/connector/webhooks')).json()[0].id;
      },
      args: () => [id, '--yes'],
      code: 0,
      stderr: /deleted webhook \S+/,
    },
    { name: 'deleted already is 4', args: () => [id, '--yes'], code: 4 },
    { name: 'without --yes and no terminal: refused, exit 2', args: ['w1'], code: 2, stderr: /refusing without --yes/ },
  ]);
});
