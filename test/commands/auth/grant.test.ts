import { describe, expect } from 'vitest';
import { newCmdGrant } from '../../../src/commands/auth/grant.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });

describe('auth grant: flags', () => {
  optionCases('auth grant', newCmdGrant, [
    {
      name: 'a user and scopes',
      args: ['--user', 'u1', '--scope', 'a:read,b:read'],
      options: { user: { userId: 'u1' }, scopes: ['a:read', 'b:read'], delegate: undefined },
    },
    {
      name: 'a delegated code',
      args: ['--user', 'u1', '--scope', 'a:read', '--delegate', '--id-hint', 'Åsa', '--actor-client-id', 'c2'],
      options: { delegate: { idHint: 'Åsa', actorClientId: 'c2' } },
    },
    { name: 'no user', args: ['--scope', 'a:read'], code: 2, stderr: 'which user?' },
    {
      name: '--delegate without a hint',
      args: ['--user', 'u', '--scope', 's', '--delegate'],
      code: 2,
      stderr: '--delegate needs --id-hint TEXT',
    },
    {
      name: 'a hint outside ISO-8859-1',
      args: ['--user', 'u', '--scope', 's', '--delegate', '--id-hint', 'Ω', '--actor-client-id', 'c'],
      code: 2,
      stderr: 'ISO-8859-1',
    },
    {
      name: '--id-hint without --delegate',
      args: ['--user', 'u', '--scope', 's', '--id-hint', 'x'],
      code: 2,
      stderr: 'only apply with --delegate',
    },
  ]);
});

describe('auth grant: output', () => {
  cliCases('auth grant', () => sb.env, [
    {
      name: 'a code for the user',
      args: ['--scope', 'accounts:read', '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out).code).toMatch(/\S{16,}/),
    },
    { name: 'an unknown user is 4', args: ['--scope', 'accounts:read', '--user', 'f'.repeat(32)], code: 4 },
  ]);
});
