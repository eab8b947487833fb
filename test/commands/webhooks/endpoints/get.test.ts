import { describe, expect } from 'vitest';
import { newCmdGet } from '../../../../src/commands/webhooks/endpoints/get.js';
import { clientToken, raw } from '../../../helpers/sandbox.js';
import { cliCases, optionCases, useSandbox } from '../../../helpers/commands.js';

const sb = useSandbox();
let id = '';
let secret = '';

describe('webhooks endpoints get', () => {
  optionCases('webhooks endpoints get', newCmdGet, [
    { name: 'the id', args: ['abc'], options: { id: 'abc' } },
    { name: 'no id', args: [], code: 2, stderr: /missing required argument/ },
  ]);
  cliCases('webhooks endpoints get', () => sb.env, [
    {
      name: 'found in the list (the reference has no GET of one), without the secret',
      before: async () => {
        const h = { authorization: `Bearer ${await clientToken(sb.t.sandbox, ['webhook-endpoints'])}` };
        const r = await raw(sb.t.sandbox.baseUrl, 'POST', '/events/v2/webhook-endpoints', {
          headers: h,
          json: { url: 'https://hooks.example.com/g', enabledEvents: ['account:updated'] },
        });
        ({ id, secret } = r.json());
      },
      args: () => [id, '-o', 'json'],
      code: 0,
      stdout: [
        (out) => expect(JSON.parse(out)).toMatchObject({ id, url: 'https://hooks.example.com/g' }),
        (out) => expect(out).not.toContain(secret),
      ],
    },
    { name: 'an unknown id is exit 4', args: ['0'.repeat(32)], code: 4, stderr: /no webhook endpoint 0{32}/ },
  ]);
});
