import { describe, expect } from 'vitest';
import { newCmdList } from '../../../src/commands/credentials/list.js';
import { cliCases, connectTestBank, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let id = '';

describe('credentials list', () => {
  optionCases('credentials list', newCmdList, [{ name: 'takes no flags of its own', args: [], options: {} }]);
  cliCases('credentials list', () => sb.env, [
    { name: 'none at first', args: ['-o', 'json'], code: 0, stdout: /^\[\]\n$/ },
    {
      name: 'the connected bank',
      before: async () => void (id = await connectTestBank(sb.env)),
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toEqual([expect.objectContaining({ id, status: 'UPDATED' })]),
    },
    {
      name: 'csv with the status columns',
      args: ['-o', 'csv'],
      code: 0,
      stdout: [/^id,providerName,status,statusUpdated,statusPayload,updated\r\n/, 'Fetched 5 accounts.'],
    },
  ]);
});
