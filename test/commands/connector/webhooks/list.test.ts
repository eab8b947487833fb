import { describe, expect } from 'vitest';
import { newCmdList } from '../../../../src/commands/connector/webhooks/list.js';
import { cliCases, not, optionCases, useSandbox } from '../../../helpers/commands.js';
import { call } from '../../../connector/helpers.js';

const sb = useSandbox();

describe('connector webhooks list', () => {
  optionCases('connector webhooks list', newCmdList, [{ name: 'takes no flags of its own', args: [], options: {} }]);
  cliCases('connector webhooks list', () => sb.t.env, [
    { name: 'none registered: said on a table', args: ['-o', 'table'], code: 0, stderr: 'no webhooks registered' },
    {
      name: 'json as returned',
      before: async () =>
        void (await call(sb.t, 'POST', '/connector/webhooks', {
          url: 'https://hooks.example.com/in',
          secret: 'hook-secret-1',
          events: ['transaction:create'],
        })),
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toEqual([expect.objectContaining({ url: 'https://hooks.example.com/in' })]),
    },
    {
      name: 'a table never shows the secret',
      args: ['-o', 'table'],
      code: 0,
      stdout: ['https://hooks.example.com/in', not('hook-secret-1')],
    },
    {
      name: 'nor does csv, even when asked for by --fields',
      args: ['-o', 'csv', '--fields', 'url,secret'],
      code: 2,
      stdout: not('hook-secret-1'),
      stderr: ['unknown path "secret"', not('hook-secret-1')],
    },
  ]);
});
