import { describe, expect } from 'vitest';
import { newCmdStatus } from '../../../src/commands/balance-refresh/status.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ months: 1 });
let refreshId = '';

describe('balance-refresh status', () => {
  optionCases('balance-refresh status', newCmdStatus, [
    { name: 'an id', args: ['r1'], options: { id: 'r1' } },
    { name: 'the id is required', args: [], code: 2, stderr: "missing required argument 'refreshId'" },
  ]);
  cliCases('balance-refresh status', () => sb.env, [
    {
      name: 'a started refresh',
      before: async () => {
        const acc = [...sb.t.sandbox.store.accounts.values()].find((a) => a.userId === sb.userId)!;
        const r = await runCli(['balance-refresh', 'create', '--account', acc.id, '-o', 'json'], { env: sb.env });
        refreshId = JSON.parse(r.stdout).balanceRefreshId;
      },
      args: () => [refreshId, '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out).status).toMatch(/^[A-Z_]+$/),
    },
    { name: 'an unknown id is 4', args: ['f'.repeat(32)], code: 4 },
  ]);
});
