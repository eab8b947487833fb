import { describe, expect } from 'vitest';
import { newCmdList } from '../../../src/commands/webhooks/list.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, not, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
const register = (args: string[]) =>
  runCli(['webhooks', 'create', '--url', 'https://hooks.example.com/in', '--secret-stdin', ...args], {
    env: sb.t.env,
    stdin: 'list-secret-1\n',
  });

describe('webhooks list', () => {
  optionCases('webhooks list', newCmdList, [{ name: 'takes no flags of its own', args: [], options: {} }]);
  cliCases('webhooks list', () => sb.t.env, [
    { name: 'none: said on a table', args: ['-o', 'table'], code: 0, stderr: 'no webhooks registered' },
    {
      name: "the client's, as returned",
      before: async () => void (await register(['--event', 'credentials:update'])),
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toEqual([expect.objectContaining({ events: ['credentials:update'] })]),
    },
    {
      name: 'a table says whose, without the secret',
      args: ['-o', 'table'],
      code: 0,
      stdout: ['all users', not('list-secret-1')],
    },
  ]);
  cliCases('webhooks list', () => sb.env, [
    {
      name: "with --user: that user's",
      before: async () => void (await register(['--event', 'transaction:create', '--user', sb.userId])),
      args: ['-o', 'csv'],
      code: 0,
      stdout: (out) => expect(out).toContain(`transaction:create,user ${sb.userId}`),
    },
  ]);
});
