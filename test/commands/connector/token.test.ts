import { describe, expect } from 'vitest';
import { newCmdToken } from '../../../src/commands/connector/token.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { raw } from '../../helpers/sandbox.js';
import { userWithAccounts } from '../../connector/helpers.js';

const sb = useSandbox();

describe('connector token: flags', () => {
  optionCases('connector token', newCmdToken, [
    {
      name: 'scopes repeated and comma-separated, a lifetime',
      args: ['--user', 'alice', '--scope', 'transactions:read,accounts:read', '--scope', 'user:read', '--ttl', '600'],
      options: { userId: 'alice', scopes: ['transactions:read', 'accounts:read', 'user:read'], ttl: 600 },
    },
    { name: 'no scope', args: ['--user', 'alice'], code: 2, stderr: '--scope is required' },
    {
      name: '--jq: a usage error, the bare token has nothing to filter',
      args: ['--user', 'alice', '--scope', 'accounts:read', '--jq', '.token'],
      code: 2,
      stderr: '--jq does not apply to `bankctl connector token`: its output is the bare token',
    },
    {
      name: 'a lifetime over the maximum',
      args: ['--user', 'a', '--scope', 's', '--ttl', '99999999'],
      code: 2,
      stderr: '--ttl must be a whole number from 1 to 10800, got 99999999',
    },
  ]);
});

describe('connector token: output', () => {
  cliCases('connector token', () => sb.t.env, [
    {
      name: 'a bare token that reads the user, and its expiry on stderr',
      before: () => userWithAccounts(sb.t, 'tok-1', 1),
      args: ['--user', 'tok-1', '--scope', 'accounts:read', '--ttl', '600'],
      code: 0,
      stdout: [
        /^\S+\n$/,
        async (out) => {
          const r = await raw(sb.t.sandbox.baseUrl, 'GET', '/data/v2/accounts', {
            headers: { authorization: `Bearer ${out.trim()}` },
          });
          expect(r.status).toBe(200);
        },
      ],
      stderr: /^expires \d{4}-\d{2}-\d{2}T/m,
    },
    {
      name: 'an unknown user is refused as the service answers (401: 3)',
      args: ['--user', 'nobody', '--scope', 'accounts:read'],
      code: 3,
      stderr: 'user "nobody" not found',
    },
  ]);
});
