import { describe, expect } from 'vitest';
import { newCmdDelete } from '../../../../src/commands/connector/transactions/delete.js';
import { runCli, tempDir } from '../../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../../helpers/commands.js';
import { ndjsonLine, userWithAccounts } from '../../../connector/helpers.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const sb = useSandbox();
const byFlags = ['--account', 'acc-0', '--balance', '950.25', '--transaction', 'e-1'];

describe('connector transactions delete: flags', () => {
  optionCases('connector transactions delete', newCmdDelete, [
    {
      name: 'the container from the flags, the balance exact',
      args: ['--yes', '--user', 'u', ...byFlags, '--transaction', 'e-2'],
      options: { user: 'u' },
      stderr: (err) => expect(err).toBe(''),
    },
    {
      name: '--account needs --balance',
      args: ['--yes', '--user', 'u', '--account', 'a', '--transaction', 't'],
      code: 2,
      stderr: '--balance is required with --account',
    },
    {
      name: '--account needs --transaction',
      args: ['--yes', '--user', 'u', '--account', 'a', '--balance', '1'],
      code: 2,
      stderr: '--transaction EXTERNAL_ID is required',
    },
    {
      name: 'a balance that is not a number',
      args: ['--yes', '--user', 'u', '--account', 'a', '--balance', '1,5', '--transaction', 't'],
      code: 2,
      stderr: '--balance must be a decimal number',
    },
    {
      name: 'flags and a file',
      args: ['--yes', '--user', 'u', ...byFlags, '--data', '{}'],
      code: 2,
      stderr: 'not both',
    },
    {
      name: 'a malformed container names the line',
      args: ['--yes', '--user', 'u', '--data', '{"type": "REAL_TIME"}'],
      code: 2,
      stderr: '--data:1:',
    },
  ]);
});

describe('connector transactions delete: output', () => {
  cliCases('connector transactions delete', () => sb.t.env, [
    {
      name: 'deleted',
      before: async () => {
        await userWithAccounts(sb.t, 'tx-1', 1);
        const f = join(tempDir(), 'one.ndjson');
        writeFileSync(
          f,
          ndjsonLine(
            {
              account: 'acc-0',
              externalId: 'e-1',
              amount: '1.00',
              date: 1_700_000_000_000,
              description: 'x',
              type: 'DEFAULT',
            },
            '1',
          ),
        );
        expect((await runCli(['connector', 'push', '--user', 'tx-1', '--file', f], { env: sb.t.env })).code).toBe(0);
      },
      args: ['--yes', '--user', 'tx-1', ...byFlags],
      code: 0,
      stderr: /^deleted$/m,
    },
    { name: 'deleted already is 4', args: ['--yes', '--user', 'tx-1', ...byFlags], code: 4 },
  ]);
});
