import { describe, expect } from 'vitest';
import { newCmdList } from '../../../src/commands/identities/list.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ months: 2 });

describe('identities list', () => {
  optionCases('identities list', newCmdList, [
    { name: 'takes no flags of its own', args: [], options: {} },
    { name: 'an unknown flag', args: ['--all'], code: 2, stderr: "unknown option '--all'" },
  ]);
  cliCases('identities list', () => sb.env, [
    {
      name: 'json: a name and a 12-digit ssn per provider',
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)[0].ssn).toMatch(/^\d{12}$/),
    },
    { name: 'a table with its columns', args: ['-o', 'table'], code: 0, stdout: ['PROVIDER', 'DATE OF BIRTH'] },
    {
      name: 'without a user: a usage error naming the flag',
      args: [],
      env: { BANKCTL_USER: undefined },
      code: 2,
      stderr: '--user',
    },
  ]);
});
