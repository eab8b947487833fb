import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'vitest';
import { newCmdPush } from '../../../../src/commands/connector/accounts/push.js';
import { tempDir } from '../../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../../helpers/commands.js';
import { call } from '../../../connector/helpers.js';

const sb = useSandbox();
const dir = tempDir();
const ok = join(dir, 'accounts.json');
writeFileSync(
  ok,
  '{"accounts": [\n  {"externalId": "a", "name": "Main", "number": "1", "balance": 10.05, "type": "CHECKING"}\n]}\n',
);
const bad = join(dir, 'bad.json');
writeFileSync(
  bad,
  '{"accounts": [\n  {"externalId": "b", "name": "Main", "number": "1", "balance": 1, "type": "CHECKING"},\n  {"externalId": "c", "name": "Main", "number": "1", "balance": "1", "type": "CHECKING"}\n]}\n',
);
const twice = join(dir, 'twice.json');
writeFileSync(
  twice,
  '{"accounts": [\n  {"externalId": "a", "name": "A", "number": "1", "balance": 1, "type": "CHECKING"},\n  {"externalId": "a", "name": "A", "number": "1", "balance": 1, "type": "CHECKING"}\n]}\n',
);
const twiceColumn = join(dir, 'twice-column.csv');
writeFileSync(twiceColumn, 'externalId,name,number,balance,type,balance\na,Main,1,10.05,CHECKING,99\n');

describe('connector accounts push: flags', () => {
  optionCases('connector accounts push', newCmdPush, [
    {
      name: 'a file and a user',
      args: ['--user', 'alice', '--file', ok],
      options: { user: 'alice', body: { accounts: [{ externalId: 'a' }] } },
    },
    {
      name: 'a wrong type names FILE:LINE',
      args: ['--user', 'u', '--file', bad],
      code: 2,
      stderr: `${bad}:3: accounts[1].balance: must be a number`,
    },
    {
      name: 'the same account twice',
      args: ['--user', 'u', '--file', twice],
      code: 2,
      stderr: `${twice}:3: account "a" appears twice`,
    },
    {
      name: 'a csv column named twice (the later cell would win unseen)',
      args: ['--user', 'u', '--file', twiceColumn],
      code: 2,
      stderr: `${twiceColumn}:1: the header row names balance twice`,
    },
    {
      name: 'not the accounts shape',
      args: ['--user', 'u', '--data', '42'],
      code: 2,
      stderr: '--data:1: expected {"accounts": [AccountEntity...]}',
    },
    { name: 'no input', args: ['--user', 'u'], code: 2, stderr: 'give the accounts with --file FILE' },
    { name: 'no user', args: ['--file', ok], code: 2, stderr: 'which user?' },
    {
      name: 'a file that is not there',
      args: ['--user', 'u', '--file', join(dir, 'none.json')],
      code: 2,
      stderr: 'no such file or directory (ENOENT)',
    },
  ]);
});

describe('connector accounts push: output', () => {
  cliCases('connector accounts push', () => sb.t.env, [
    {
      name: 'pushed',
      before: async () =>
        void (await call(sb.t, 'POST', '/connector/users', { externalId: 'p-1', token: 't', market: 'SE' })),
      args: ['--user', 'p-1', '--file', ok],
      code: 0,
      stderr: 'pushed 1 account(s) for user p-1',
    },
    { name: 'pushed again is 5', args: ['--user', 'p-1', '--file', ok], code: 5 },
    {
      name: 'from stdin',
      before: async () =>
        void (await call(sb.t, 'POST', '/connector/users', { externalId: 'p-2', token: 't', market: 'SE' })),
      args: ['--user', 'p-2', '--file', '-'],
      stdin: '{"accounts": [{"externalId": "s", "name": "Main", "number": "2", "balance": 0.1, "type": "SAVINGS"}]}',
      code: 0,
      stderr: 'pushed 1 account(s) for user p-2',
    },
    {
      name: 'an empty list from stdin is not "pushed 0"',
      args: ['--user', 'p-2', '--file', '-'],
      stdin: '{"accounts": []}',
      code: 2,
      stderr: 'stdin holds no accounts: nothing to push',
    },
  ]);
});
