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
