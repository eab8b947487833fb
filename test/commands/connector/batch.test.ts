import { describe, expect } from 'vitest';
import { newCmdBatch } from '../../../src/commands/connector/batch.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { userWithAccounts } from '../../connector/helpers.js';

const sb = useSandbox();
const container = (id: string) => ({
  type: 'REAL_TIME',
  transactionAccounts: [
    {
      externalId: 'acc-0',
      balance: 100,
      transactions: [{ externalId: id, amount: -12.3, date: 1_700_000_000_000, description: 'Shop', type: 'DEFAULT' }],
    },
  ],
});
const batch = (...entities: Array<[string, string]>) =>
  JSON.stringify({
    ingestEntities: entities.map(([entityId, user]) => ({
      entityId,
      externalUserId: user,
      container: container(`${entityId}-tx`),
    })),
  });

describe('connector batch: flags', () => {
  optionCases('connector batch', newCmdBatch, [
    {
      name: 'a batch inline',
      args: ['--data', batch(['e1', 'u1'])],
      options: { batch: { ingestEntities: [{ entityId: 'e1' }] } },
    },
    {
      name: 'not a batch',
      args: ['--data', '{"entities": []}'],
      code: 2,
      stderr: '--data:1: expected {"ingestEntities": [...]}',
    },
    {
      name: 'an entity without a user',
      args: ['--data', '{"ingestEntities": [{"entityId": "e1", "container": {}}]}'],
      code: 2,
      stderr: 'each entity needs entityId, externalUserId and container',
    },
    { name: 'no input', args: [], code: 2, stderr: 'give the CreateTransactionBatch with --file FILE' },
  ]);
});

describe('connector batch: output', () => {
  cliCases('connector batch', () => sb.t.env, [
    {
      name: 'a status per entity',
      before: () => userWithAccounts(sb.t, 'b-1', 1),
      args: ['--file', '-', '-o', 'json'],
      stdin: batch(['e1', 'b-1']),
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toEqual([expect.objectContaining({ entityId: 'e1', httpStatus: expect.any(Number) })]),
    },
    {
      name: 'the exit code of the first failed entity, and every status printed',
      args: ['--file', '-', '-o', 'json'],
      stdin: batch(['ok', 'b-1'], ['ghost', 'no-such-user']),
      // the service answers 401 for a user it does not know
      code: 3,
      stdout: (out) => expect(JSON.parse(out).map((s: { entityId: string }) => s.entityId)).toEqual(['ok', 'ghost']),
      stderr: /1 of 2 entities failed; first: ghost/,
    },
  ]);
});
