import { describe, expect } from 'vitest';
import { newCmdCreate } from '../../../src/commands/reports/create.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ months: 1 });
const accountIds = () =>
  [...sb.t.sandbox.store.accounts.values()].filter((a) => a.userId === sb.userId).map((a) => a.id);

describe('reports create', () => {
  optionCases('reports create', newCmdCreate, [
    { name: 'all accounts', args: [], options: { accountIds: [] } },
    {
      name: 'accounts repeated and comma-separated, a reference',
      args: ['--account', 'a,b', '--account', 'c', '--external-reference', 'r-1'],
      options: { accountIds: ['a', 'b', 'c'], externalReference: 'r-1' },
    },
  ]);
  cliCases('reports create', () => sb.env, [
    {
      name: 'json: the whole report, and how to get its PDF on stderr',
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toMatchObject({ id: expect.any(String), userId: sb.userId }),
      stderr: /report [0-9a-f]+ is available for one hour: bankctl reports pdf [0-9a-f]+ -O report.pdf/,
    },
    {
      name: 'a table: one readable row with the account count',
      args: () => ['--account', accountIds()[0]!, '-o', 'table'],
      code: 0,
      stdout: [/accounts\s+1\s/, /expires/],
    },
    {
      name: 'an unknown account is the service 400 (2)',
      args: ['--account', 'nope'],
      code: 2,
      stderr: 'HTTP 400: unknown account id: nope',
    },
  ]);
});
