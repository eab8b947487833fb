import { describe, expect } from 'vitest';
import { newCmdDelete } from '../../../../src/commands/webhooks/endpoints/delete.js';
import { clientToken, raw } from '../../../helpers/sandbox.js';
import { cliCases, optionCases, useSandbox } from '../../../helpers/commands.js';

const sb = useSandbox();
let id = '';

describe('webhooks endpoints delete', () => {
  optionCases('webhooks endpoints delete', newCmdDelete, [
    { name: 'the id', args: ['abc', '--yes'], options: { id: 'abc' } },
    { name: 'no id', args: [], code: 2, stderr: /missing required argument/ },
  ]);
  cliCases('webhooks endpoints delete', () => sb.env, [
    {
      name: 'deleted: gone from the list',
      before: async () => {
        const h = { authorization: `Bearer ${await clientToken(sb.t.sandbox, ['webhook-endpoints'])}` };
        id = (
          await raw(sb.t.sandbox.baseUrl, 'POST', '/events/v2/webhook-endpoints', {
            headers: h,
            json: { url: 'https://hooks.example.com/d', enabledEvents: ['refresh:finished'] },
          })
        ).json().id;
      },
      args: () => [id, '--yes'],
      code: 0,
      stderr: /deleted webhook endpoint/,
      after: async () => {
        const h = { authorization: `Bearer ${await clientToken(sb.t.sandbox, ['webhook-endpoints'])}` };
        const list = await raw(sb.t.sandbox.baseUrl, 'GET', '/events/v2/webhook-endpoints', { headers: h });
        expect(list.json().webhookEndpoints).toEqual([]);
      },
    },
    { name: 'again: exit 4', args: () => [id, '--yes'], code: 4 },
    {
      name: 'without --yes and no terminal: refused, exit 2',
      args: ['abc'],
      code: 2,
      stderr: /refusing without --yes/,
    },
  ]);
});
