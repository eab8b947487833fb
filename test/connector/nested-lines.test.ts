// A container at fault deep inside is reported on the line of the object at fault, not line 1:
// connector transactions delete and update, and the entities of connector batch (spawned CLI).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';

const env = () => ({
  BANKCTL_CONFIG_DIR: tempDir(),
  BANKCTL_BASE_URL: 'http://127.0.0.1:9',
  BANKCTL_CONNECTOR_TOKEN: 'not-used',
});

function file(name: string, text: string): string {
  const f = join(tempDir(), name);
  writeFileSync(f, text);
  return f;
}

const del = [
  '{',
  '  "type": "REAL_TIME",',
  '  "transactionAccounts": [',
  '    {"externalId": "acc-1", "balance": 1, "transactions": [{"externalId": "t-1"}]},',
  '    {"externalId": "acc-2",',
  '     "balance": "abc",',
  '     "transactions": [',
  '       {"externalId": "t-2"},',
  '       {"id": 3}',
  '     ]}',
  '  ]',
  '}',
].join('\n');

describe('FILE:LINE of a fault inside a container', () => {
  test('transactions delete: the account at fault', async () => {
    const f = file('del.json', del);
    const r = await spawnCli(['connector', 'transactions', 'delete', '--user', 'u', '--file', f, '--yes'], {
      env: env(),
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${f}:5: transactionAccounts[1].balance: must be a number`);
  });

  test('transactions delete: the transaction at fault', async () => {
    const f = file('del.json', del.replace('"balance": "abc"', '"balance": 2'));
    const r = await spawnCli(['connector', 'transactions', 'delete', '--user', 'u', '--file', f, '--yes'], {
      env: env(),
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${f}:9: transactionAccounts[1].transactions[1].externalId: is required`);
  });

  test('transactions update: the transaction at fault', async () => {
    const f = file(
      'upd.json',
      [
        '{"transactionAccounts": [',
        '  {"externalId": "acc-1", "balance": 900,',
        '   "transactions": [',
        '     {"externalId": "tx-1", "amount": "x", "date": 1700000000000, "description": "C", "type": "DEFAULT"}',
        '   ]}',
        ']}',
      ].join('\n'),
    );
    const r = await spawnCli(['connector', 'transactions', 'update', 'tx-1', '--user', 'u', '--file', f], {
      env: env(),
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${f}:4: transactionAccounts[0].transactions[0].amount: must be a number`);
  });

  test('batch: the transaction at fault in the second entity', async () => {
    const tx = (amount: string) =>
      `{"externalId": "t", "amount": ${amount}, "date": 1700000000000, "description": "d", "type": "DEFAULT"}`;
    const entity = (id: string, amount: string) =>
      [
        `  {"entityId": "${id}", "externalUserId": "u",`,
        '   "container": {"type": "REAL_TIME", "transactionAccounts": [',
        '     {"externalId": "acc-1", "balance": 1, "transactions": [',
        `       ${tx(amount)}`,
        '     ]}]}}',
      ].join('\n');
    const f = file(
      'batch.json',
      ['{"ingestEntities": [', entity('e1', '1.5') + ',', entity('e2', '"x"'), ']}'].join('\n'),
    );
    const r = await spawnCli(['connector', 'batch', '--file', f], { env: env() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${f}:10: entity "e2": transactionAccounts[0].transactions[0].amount: must be a number`);
  });

  test('transactions delete by flags: a bad --type names the flag', async () => {
    const r = await spawnCli(
      [
        'connector',
        'transactions',
        'delete',
        '--user',
        'u',
        '--account',
        'a',
        '--balance',
        '1',
        '--transaction',
        't',
        '--type',
        'SOON',
        '--yes',
      ],
      { env: env() },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--type must be one of REAL_TIME, HISTORICAL, BATCH, got "SOON"');
    expect(r.stderr).not.toContain('flags:0');
  });
});
