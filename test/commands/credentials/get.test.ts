import { describe, expect } from 'vitest';
import { newCmdGet } from '../../../src/commands/credentials/get.js';
import { cliCases, connectTestBank, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let id = '';

describe('credentials get', () => {
  optionCases('credentials get', newCmdGet, [
    { name: 'an id', args: ['c1'], options: { id: 'c1' } },
    { name: 'the id is required', args: [], code: 2 },
  ]);
  cliCases('credentials get', () => sb.env, [
    {
      name: 'one set of credentials, without the password',
      before: async () => void (id = await connectTestBank(sb.env)),
      args: () => [id, '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out).fields).toEqual({ username: 'test-user' }),
    },
    { name: 'unknown credentials are 4', args: ['f'.repeat(32)], code: 4 },
  ]);
});
