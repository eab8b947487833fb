import { describe, expect } from 'vitest';
import { newCmdGet } from '../../../src/commands/providers/get.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox();

describe('providers get', () => {
  optionCases('providers get', newCmdGet, [
    { name: 'a name', args: ['se-test-password'], options: { name: 'se-test-password' } },
    { name: 'the name is required', args: [], code: 2, stderr: "missing required argument 'name'" },
  ]);
  cliCases('providers get', () => sb.env, [
    {
      name: 'the provider and the fields its credentials take',
      args: ['se-test-password', '-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out).fields).toEqual([
          expect.objectContaining({ name: 'username' }),
          expect.objectContaining({ name: 'password', masked: true }),
        ]),
    },
    { name: 'an unknown provider is 4', args: ['no-such-bank'], code: 4, stderr: /provider no-such-bank not found/ },
    {
      // the token grant's 404 is the user's: it was reported as "provider se-test-password not found"
      name: 'an unknown acting user is 4 naming the user and the failed grant, not the provider',
      args: ['se-test-password', '--user', '0123456789abcdef0123456789abcdef'],
      code: 4,
      stderr: (err) => {
        expect(err).toMatch(
          /authorization-grant failed: HTTP 404: user 0123456789abcdef0123456789abcdef does not exist/,
        );
        expect(err).not.toMatch(/provider .* not found/);
      },
    },
  ]);
});
