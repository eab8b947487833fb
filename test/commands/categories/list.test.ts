import { describe } from 'vitest';
import { newCmdList } from '../../../src/commands/categories/list.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
const csv = ['-o', 'csv', '--fields', 'code,primaryName'];

describe('categories list: flags', () => {
  optionCases('categories list', newCmdList, [
    { name: 'no locale', args: [], options: { locale: undefined } },
    { name: 'a locale', args: ['--locale', 'sv_SE'], options: { locale: 'sv_SE' } },
    {
      name: 'a malformed locale',
      args: ['--locale', 'swedish'],
      code: 2,
      stderr: '--locale must look like en_US or sv_SE',
    },
  ]);
});

describe('categories list: output', () => {
  cliCases('categories list', () => sb.t.env, [
    { name: 'names in en_US without a user', args: csv, code: 0, stdout: 'expenses:food,Food & Drinks' },
    { name: '--locale sv_SE', args: ['--locale', 'sv_SE', ...csv], code: 0, stdout: 'expenses:food,Mat & Dryck' },
    { name: 'csv has a header', args: csv, code: 0, stdout: /^code,primaryName\r\n/ },
  ]);
  cliCases('categories list', () => sb.env, [
    {
      name: "a Swedish user's own locale wins over --locale, and the command says so",
      args: ['--locale', 'en_US', ...csv],
      code: 0,
      stdout: 'expenses:food,Mat & Dryck',
      stderr: "the names come in the user's locale: --locale en_US applies only without a user",
    },
  ]);
});
