import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { newCmdUpdate } from '../../../../src/commands/connector/transactions/update.js';
import { runCli, tempDir } from '../../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../../helpers/commands.js';
import { ndjsonLine, userWithAccounts } from '../../../connector/helpers.js';

const sb = useSandbox();
const tx = (id: string, extra = '') =>
  `{"externalId":"${id}","amount":-12.30,"date":1700000000000,"description":"Shop","type":"DEFAULT"${extra}}`;
const container = (...txs: string[]) =>
  `{"type":"REAL_TIME","transactionAccounts":[{"externalId":"acc-0","balance":100,"transactions":[${txs.join(',')}]}]}`;

describe('connector transactions update: flags', () => {
  optionCases('connector transactions update', newCmdUpdate, [
    {
      name: 'one transaction',
      args: ['t1', '--user', 'u', '--data', container(tx('t1'))],
      options: { user: 'u', transactionId: 't1' },
    },
    {
      name: 'two transactions',
      args: ['t1', '--user', 'u', '--data', container(tx('t1'), tx('t2'))],
      code: 2,
      stderr: 'an update holds exactly one transaction, got 2',
    },
    { name: 'not JSON', args: ['t1', '--user', 'u', '--data', '{oops'], code: 2, stderr: '--data' },
    {
      name: 'no "type": REAL_TIME is sent',
      args: ['t1', '--user', 'u', '--data', container(tx('t1')).replace('"type":"REAL_TIME",', '')],
      options: { body: { type: 'REAL_TIME' } },
    },
    {
      name: 'another type is refused',
      args: ['t1', '--user', 'u', '--data', container(tx('t1')).replace('REAL_TIME', 'HISTORICAL')],
      code: 2,
      stderr: 'an update must be REAL_TIME',
    },
  ]);
});

describe('connector transactions update: output', () => {
  cliCases('connector transactions update', () => sb.t.env, [
    {
      name: 'a pending transaction pushed, then booked',
      before: async () => {
        await userWithAccounts(sb.t, 'upd-1', 1);
        const f = join(tempDir(), 'pending.ndjson');
        const pending = {
          account: 'acc-0',
          externalId: 'p-1',
          amount: '-12.30',
          date: 1_700_000_000_000,
          description: 'Shop',
          type: 'DEFAULT',
          pending: true,
        };
        writeFileSync(f, ndjsonLine(pending, '100'));
        expect((await runCli(['connector', 'push', '--user', 'upd-1', '--file', f], { env: sb.t.env })).code).toBe(0);
      },
      args: ['p-1', '--user', 'upd-1', '--data', container(tx('p-1', ',"pending":false'))],
      code: 0,
      stderr: 'updated transaction p-1',
    },
    {
      name: 'booked again without "type" in the container: the service takes it',
      args: [
        'p-1',
        '--user',
        'upd-1',
        '--data',
        container(tx('p-1', ',"pending":false')).replace('"type":"REAL_TIME",', ''),
      ],
      code: 0,
      stderr: 'updated transaction p-1',
    },
    {
      name: 'an unknown transaction is 4',
      args: ['nope', '--user', 'upd-1', '--data', container(tx('nope'))],
      code: 4,
    },
  ]);
});
