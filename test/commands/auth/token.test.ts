import { describe, expect } from 'vitest';
import { newCmdToken } from '../../../src/commands/auth/token.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { raw } from '../../helpers/sandbox.js';

const sb = useSandbox({ user: true });
const works = async (token: string, path: string) =>
  (await raw(sb.t.sandbox.baseUrl, 'GET', path, { headers: { authorization: `Bearer ${token}` } })).status;

describe('auth token', () => {
  optionCases('auth token', newCmdToken, [
    { name: 'no scope: the default of the token kind', args: [], options: { scopes: [], fresh: false } },
    { name: '--fresh', args: ['--fresh'], options: { scopes: [], fresh: true } },
    {
      name: 'scopes',
      args: ['--scope', 'accounts:read, transactions:read'],
      options: { scopes: ['accounts:read', 'transactions:read'], fresh: false },
    },
    // the bare token has nothing for --jq or --fields to shape: said, before any token is asked for
    {
      name: '--jq is a usage error, not ignored',
      args: ['--jq', '.access_token'],
      code: 2,
      stderr: 'error: --jq does not apply to `bankctl auth token`: its output is the bare access token (drop --jq)\n',
    },
    {
      name: '--fields is a usage error, not ignored',
      args: ['--fields', 'access_token'],
      code: 2,
      stderr: '--fields does not apply to `bankctl auth token`',
    },
    { name: '--fields help too', args: ['--fields'], code: 2, stderr: '--fields does not apply' },
  ]);
  cliCases('auth token', () => sb.t.env, [
    {
      name: 'a bare client token and a newline',
      args: ['--scope', 'providers:read'],
      code: 0,
      stdout: [/^\S+\n$/, async (out) => expect(await works(out.trim(), '/api/v1/providers/SE')).toBe(200)],
      stderr: /^$/,
    },
    {
      // the contract: the bare token whatever -o says, for $(bankctl auth token) with BANKCTL_OUTPUT set
      name: '-o json: still the bare token',
      args: ['--scope', 'providers:read', '-o', 'json'],
      code: 0,
      stdout: /^[^\s{"]+\n$/,
    },
    {
      name: 'a user-token scope without a user: exit 2 asking which user, no token printed',
      args: ['--scope', 'transactions:read,providers:read'],
      code: 2,
      stdout: /^$/,
      stderr: 'transactions:read is a scope of user tokens: which user? pass --user ID or --external-user ID',
    },
  ]);
  cliCases('auth token', () => sb.env, [
    {
      name: 'a user token with --user',
      args: ['--scope', 'accounts:read'],
      code: 0,
      stdout: async (out) => expect(await works(out.trim(), '/api/v1/accounts/list')).toBe(200),
    },
    { name: "an unknown scope is the service's 400 (2)", args: ['--scope', 'no:such'], code: 2 },
  ]);
});
