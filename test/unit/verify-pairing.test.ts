// verify pairs the file's accounts (externalIds) with the service's (ids). The account list rarely
// shows externalIds, so the first pass keeps a few booked transactions of each file account as
// samples, and the read-back pairs a service account when it meets one: no second pass over the file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectedFromFile, foldPage, pairedByReadBack, type AccountTotals } from '../../src/push/verify.js';

const dir = mkdtempSync(join(tmpdir(), 'bankctl-pairing-'));
const line = (account: string, id: string, amount: number, pending = false) =>
  JSON.stringify({
    account,
    externalId: id,
    amount,
    date: 1_700_000_000_000,
    description: 'x',
    type: 'DEFAULT',
    ...(pending ? { pending: true } : {}),
  });

describe('samples of the first pass', () => {
  test('the first four booked transactions of each account, pending ones never (they may be replaced)', async () => {
    const file = join(dir, 'a.ndjson');
    const lines = [line('A', 'p1', 1, true)];
    for (let i = 0; i < 6; i++) lines.push(line('A', `a${i}`, 1), line('B', `b${i}`, -2.5));
    writeFileSync(file, `${lines.join('\n')}\n`);
    const { samples } = await expectedFromFile(file, 'ndjson');
    expect([...samples]).toEqual([
      ['a0', 'A'],
      ['b0', 'B'],
      ['a1', 'A'],
      ['b1', 'B'],
      ['a2', 'A'],
      ['b2', 'B'],
      ['a3', 'A'],
      ['b3', 'B'],
    ]);
  });

  test('the same from a CSV file (the record reader, not the byte scanner)', async () => {
    const file = join(dir, 'a.csv');
    writeFileSync(
      file,
      'account,externalId,amount,date,description,type\nA,c1,1.00,2024-01-01,x,DEFAULT\nB,c2,2.00,2024-01-01,y,DEFAULT\n',
    );
    const { samples } = await expectedFromFile(file, 'csv');
    expect([...samples]).toEqual([
      ['c1', 'A'],
      ['c2', 'B'],
    ]);
  });
});

describe('pairing in the read-back', () => {
  const tx = (accountId: string, id: string) => ({
    accountId,
    unscaledValue: 100,
    scale: 2,
    providerTransactionId: id,
  });
  const expected = (accounts: string[], samples: Array<[string, string]>) => ({
    accounts: new Map(accounts.map((a) => [a, { count: 0, sum: undefined as never, fp: undefined as never }])),
    samples: new Map(samples),
    invalid: 0,
    minDate: 0,
    maxDate: 0,
    perDay: new Map(),
  });

  test('a service account is paired by the first sample among its transactions', () => {
    const out = new Map<string, AccountTotals>();
    const e = expected(
      ['A', 'B'],
      [
        ['a1', 'A'],
        ['b1', 'B'],
      ],
    );
    foldPage(out, [tx('s1', 'other'), tx('s1', 'a1'), tx('s2', 'b1')], e.samples);
    expect(out.get('s1')!.count).toBe(2);
    expect(out.get('s1')!.fileAccount).toBe('A');
    expect([...pairedByReadBack(e, out, [])!]).toEqual([
      ['A', 's1'],
      ['B', 's2'],
    ]);
  });

  test('a file account no sample met: undefined (the caller makes the second pass), unless the account list pairs it', () => {
    const out = new Map<string, AccountTotals>();
    const e = expected(
      ['A', 'B'],
      [
        ['a1', 'A'],
        ['b1', 'B'],
      ],
    );
    foldPage(out, [tx('s1', 'a1'), tx('s2', 'b-lost-sample-not-here')], e.samples);
    expect(pairedByReadBack(e, out, [])).toBeUndefined();
    expect([...pairedByReadBack(e, out, [{ id: 's2', externalId: 'B' } as never])!]).toEqual([['A', 's1']]);
  });
});
