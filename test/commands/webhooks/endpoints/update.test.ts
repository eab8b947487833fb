import { describe, expect } from 'vitest';
import { newCmdUpdate } from '../../../../src/commands/webhooks/endpoints/update.js';
import { clientToken, raw } from '../../../helpers/sandbox.js';
import { cliCases, optionCases, useSandbox } from '../../../helpers/commands.js';

const sb = useSandbox();
let id = '';

describe('webhooks endpoints update', () => {
  optionCases('webhooks endpoints update', newCmdUpdate, [
    {
      name: '--event replaces the set; --disable',
      args: ['e1', '--event', 'account:created', '--event', 'account:updated', '--disable'],
      options: { id: 'e1', changes: { enabledEvents: ['account:created', 'account:updated'], disabled: true } },
    },
    { name: '--enable', args: ['e1', '--enable'], options: { changes: { disabled: false } } },
    {
      name: 'url and description',
      args: ['e1', '--url', 'https://h.example/n', '--description', 'd'],
      options: { changes: { url: 'https://h.example/n', description: 'd' } },
    },
    { name: 'nothing to change', args: ['e1'], code: 2, stderr: /nothing to change/ },
    { name: 'both --enable and --disable', args: ['e1', '--enable', '--disable'], code: 2, stderr: /not both/ },
    { name: 'a v1 event', args: ['e1', '--event', 'transaction:create'], code: 2, stderr: /unknown event/ },
  ]);
  cliCases('webhooks endpoints update', () => sb.env, [
    {
      name: 'PATCH: the endpoint as it is now',
      before: async () => {
        const h = { authorization: `Bearer ${await clientToken(sb.t.sandbox, ['webhook-endpoints'])}` };
        id = (
          await raw(sb.t.sandbox.baseUrl, 'POST', '/events/v2/webhook-endpoints', {
            headers: h,
            json: { url: 'https://hooks.example.com/u', enabledEvents: ['refresh:finished'] },
          })
        ).json().id;
      },
      args: () => [id, '--event', 'account:created', '--disable', '--description', 'paused', '-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toMatchObject({
          id,
          enabledEvents: ['account:created'],
          disabled: true,
          description: 'paused',
        }),
      stderr: /updated webhook endpoint/,
    },
    { name: 'an unknown id is exit 4', args: ['nope', '--enable'], code: 4, stderr: /not found/ },
  ]);
});
