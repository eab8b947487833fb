import { describe, expect } from 'vitest';
import { newCmdList } from '../../../src/commands/consents/list.js';
import { cliCases, connectTestBank, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let credentialsId = '';

describe('consents list', () => {
  optionCases('consents list', newCmdList, [{ name: 'takes no flags of its own', args: [], options: {} }]);
  cliCases('consents list', () => sb.env, [
    { name: 'none before a bank is connected', args: ['-o', 'json'], code: 0, stdout: /^\[\]\n$/ },
    {
      name: 'the consent of a connected bank',
      before: async () => void (credentialsId = await connectTestBank(sb.env)),
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toEqual([
          expect.objectContaining({ credentialsId, providerName: 'se-test-password', status: 'UPDATED' }),
        ]),
    },
    {
      name: 'a table counts the accounts',
      args: ['-o', 'csv', '--fields', 'credentialsId,status,accountIds'],
      code: 0,
      stdout: (out) => expect(out).toContain(`${credentialsId},UPDATED,`),
    },
    { name: 'without a user: a usage error', args: [], env: { BANKCTL_USER: undefined }, code: 2, stderr: '--user' },
  ]);
});
