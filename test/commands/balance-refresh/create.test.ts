import { describe, expect } from 'vitest';
import { newCmdCreate } from '../../../src/commands/balance-refresh/create.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ months: 1 });
const checking = () =>
  [...sb.t.sandbox.store.accounts.values()].find((a) => a.userId === sb.userId && a.type === 'CHECKING')!;

describe('balance-refresh create: flags', () => {
  optionCases('balance-refresh create', newCmdCreate, [
    { name: 'an account', args: ['--account', 'a1'], options: { account: 'a1', wait: false, waitTimeoutS: 60 } },
    {
      name: '--wait with a timeout',
      args: ['--account', 'a1', '--wait', '--wait-timeout', '5'],
      options: { wait: true, waitTimeoutS: 5 },
    },
    {
      name: '--account is required',
      args: [],
      code: 2,
      stderr: 'error: --account is required (the account to refresh)\n',
    },
    { name: 'an empty --account', args: ['--account', ' '], code: 2, stderr: '--account must not be empty' },
    {
      name: 'a timeout that is not a number',
      args: ['--account', 'a', '--wait-timeout', 'soon'],
      code: 2,
      stderr: '--wait-timeout must be a whole number',
    },
  ]);
});

describe('balance-refresh create: output', () => {
  cliCases('balance-refresh create', () => sb.env, [
    {
      name: '--wait ends FINISHED',
      args: () => ['--account', checking().id, '--wait', '-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toMatchObject({ status: 'FINISHED', credentialsId: checking().credentialsIds[0] }),
      stderr: /balance refresh [0-9a-f]+ started; waiting for it to finish/,
    },
    {
      name: 'without --wait: the refresh as started',
      args: () => ['--account', checking().id, '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out).balanceRefreshId).toMatch(/^[0-9a-f]{32}$/),
    },
    { name: 'an unknown account is the service 400 (2)', args: ['--account', 'nope'], code: 2, stderr: /accountId/ },
  ]);
});
