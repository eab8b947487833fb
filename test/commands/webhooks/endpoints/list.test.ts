import { describe, expect } from 'vitest';
import { newCmdList } from '../../../../src/commands/webhooks/endpoints/list.js';
import { raw } from '../../../helpers/sandbox.js';
import { clientToken } from '../../../helpers/sandbox.js';
import { cliCases, not, optionCases, useSandbox } from '../../../helpers/commands.js';

const sb = useSandbox();
let secret = '';

async function register(n: number) {
  const h = { authorization: `Bearer ${await clientToken(sb.t.sandbox, ['webhook-endpoints'])}` };
  for (let i = 0; i < n; i++) {
    const r = await raw(sb.t.sandbox.baseUrl, 'POST', '/events/v2/webhook-endpoints', {
      headers: h,
      json: { url: `https://hooks.example.com/${i}`, enabledEvents: ['refresh:finished'], description: `hook ${i}` },
    });
    secret = r.json().secret;
  }
}

describe('webhooks endpoints list', () => {
  optionCases('webhooks endpoints list', newCmdList, [
    { name: 'no flags of its own', args: [], options: {} },
    { name: 'no arguments', args: ['x'], code: 2, stderr: 'too many arguments' },
  ]);
  cliCases('webhooks endpoints list', () => sb.env, [
    {
      name: 'none yet: a notice, nothing on stdout',
      args: ['-o', 'table'],
      code: 0,
      stdout: /^$/,
      stderr: /no webhook endpoints/,
    },
    {
      name: 'every page (101 endpoints, 100 a page), without the secret',
      before: () => register(101),
      args: ['-o', 'json'],
      code: 0,
      stdout: [(out) => expect(JSON.parse(out)).toHaveLength(101), (out) => expect(out).not.toContain(secret)],
    },
    {
      name: 'csv: id, url, events, disabled, description',
      args: ['-o', 'csv'],
      code: 0,
      stdout: [
        /^id,url,events,disabled,description\r\n/,
        /,https:\/\/hooks\.example\.com\/0,refresh:finished,no,hook 0\r\n/,
        not('secret'),
      ],
    },
  ]);
});
