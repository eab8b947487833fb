// verify's sums are shown as money is written (the cent digit kept), and the two sides of a row
// are written at one scale, so equal amounts give equal texts and a drift shows in full.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ExactSum, compare, expectedFromFile, sumTexts } from '../../src/push/verify.js';

const sum = (...amounts: string[]) => {
  const s = new ExactSum();
  for (const a of amounts) s.addText(a);
  return s;
};

describe('sumTexts', () => {
  test('keeps the trailing zero of a cent amount', () => {
    expect(sumTexts(sum('10.50', '0.10'), sum('10.60'))).toEqual(['10.60', '10.60']);
    expect(sumTexts(sum('704.6'), sum('704.60'))).toEqual(['704.60', '704.60']);
  });
  test('writes both sides at the larger scale, so a difference is plain', () => {
    expect(sumTexts(sum('1.005'), sum('1.01'))).toEqual(['1.005', '1.010']);
    expect(sumTexts(sum('-3.10'), undefined)).toEqual(['-3.10', '0.00']);
    expect(sumTexts(sum('100', '-100'), sum())).toEqual(['0', '0']);
  });
  test('stays exact beyond a double', () => {
    expect(sumTexts(sum('9007199254740993.10', '0.01'), sum('9007199254740993.11'))).toEqual([
      '9007199254740993.11',
      '9007199254740993.11',
    ]);
  });
});

test('a verify row of cent amounts shows the cents, and ok compares the amounts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bankctl-sums-'));
  const file = join(dir, 'a.ndjson');
  const line = (id: string, amount: string) =>
    `{"account":"A","externalId":"${id}","amount":${amount},"date":1700000000000,"description":"x","type":"DEFAULT"}`;
  writeFileSync(file, `${line('t1', '10.25')}\n${line('t2', '0.25')}\n`);
  const expected = await expectedFromFile(file, 'ndjson');
  const actual = new Map([['svc-a', { count: 2, sum: sum('10.5') }]]);
  const [row] = compare(expected, actual, [{ id: 'svc-a', externalId: 'A' } as never]);
  expect(row).toMatchObject({ expectedSum: '10.50', actualSum: '10.50', ok: true });
  const [drift] = compare(expected, new Map([['svc-a', { count: 2, sum: sum('10.4') }]]), [
    { id: 'svc-a', externalId: 'A' } as never,
  ]);
  expect(drift).toMatchObject({ expectedSum: '10.50', actualSum: '10.40', ok: false });
});
