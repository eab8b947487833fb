import { describe } from 'vitest';
import { newCmdDelete } from '../../../../src/commands/connector/webhooks/delete.js';
import { cliCases, optionCases, useSandbox } from '../../../helpers/commands.js';
import { call } from '../../../connector/helpers.js';

const sb = useSandbox();
let id = '';

describe('connector webhooks delete', () => {
  optionCases('connector webhooks delete', newCmdDelete, [{ name: 'an id', args: ['w1'], options: { id: 'w1' } }]);
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
      args: () => [id],
      code: 0,
      stderr: /deleted webhook \S+/,
    },
    { name: 'deleted already is 4', args: () => [id], code: 4 },
  ]);
});
