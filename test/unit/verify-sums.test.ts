// verify's sums are shown as money is written (the cent digit kept), and the two sides of a row
// are written at one scale, so equal amounts give equal texts and a drift shows in full.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ExactSum, compare, expectedFromFile, foldPage, sumTexts, type AccountTotals } from '../../src/push/verify.js';

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

const slim = (id: string | undefined, unscaledValue: string | number, scale: string | number) => ({
  accountId: 'svc-a',
  unscaledValue,
  scale,
  ...(id === undefined ? {} : { providerTransactionId: id }),
});
const readBack = (...page: ReturnType<typeof slim>[]) => {
  const out = new Map<string, AccountTotals>();
  foldPage(out, page);
  return out;
};
const listed = [{ id: 'svc-a', externalId: 'A' } as never];

/** A file of account A's transactions (externalId, amount as JSON text, more members). */
async function fileOf(...lines: Array<[string, string, string?]>) {
  const dir = mkdtempSync(join(tmpdir(), 'bankctl-sums-'));
  const file = join(dir, 'a.ndjson');
  const line = ([id, amount, more]: [string, string, string?]) =>
    `{"account":"A","externalId":"${id}","amount":${amount},"date":1700000000000,"description":"x","type":"DEFAULT"${more ?? ''}}`;
  writeFileSync(file, `${lines.map(line).join('\n')}\n`);
  return expectedFromFile(file, 'ndjson');
}

test('a verify row of cent amounts shows the cents, and ok compares the amounts', async () => {
  const expected = await fileOf(['t1', '10.25'], ['t2', '0.25']);
  // the service writes 0.25 as 25 at scale 2 and 10.25 as a string: the same transactions
  const [row] = compare(expected, readBack(slim('t1', '1025', '2'), slim('t2', 25, 2)), listed);
  expect(row).toMatchObject({ expectedSum: '10.50', actualSum: '10.50', sameTransactions: true, ok: true });
  const [drift] = compare(expected, readBack(slim('t1', '1015', '2'), slim('t2', 25, 2)), listed);
  expect(drift).toMatchObject({ expectedSum: '10.50', actualSum: '10.40', ok: false });
});

describe('the same transactions, not only the same count and sum', () => {
  test('two amounts swapped between transactions of one account: a drift', async () => {
    const expected = await fileOf(['t1', '10.25'], ['t2', '0.25']);
    const [row] = compare(expected, readBack(slim('t1', 25, 2), slim('t2', 1025, 2)), listed);
    expect(row).toMatchObject({ expectedCount: 2, actualCount: 2, expectedSum: '10.50', actualSum: '10.50' });
    expect(row).toMatchObject({ sameTransactions: false, ok: false });
  });
  test('a cent moved from one transaction to another, or another externalId: a drift', async () => {
    const expected = await fileOf(['t1', '10.25'], ['t2', '0.25']);
    expect(compare(expected, readBack(slim('t1', 1026, 2), slim('t2', 24, 2)), listed)[0]!.ok).toBe(false);
    expect(compare(expected, readBack(slim('t1', 1025, 2), slim('t3', 25, 2)), listed)[0]!.ok).toBe(false);
  });
  test('in any order, at any scale, beyond a double, and a pending one replaced later in the file taken out', async () => {
    const expected = await fileOf(
      ['t1', '10.250'],
      ['big', '90071992547409931.5'],
      ['p1', '-5.00', ',"pending":true'],
      ['b1', '-5.00', ',"payload":{"PENDING_IDS":["p1"]}'],
    );
    const all = readBack(slim('big', '900719925474099315', '1'), slim('b1', -500, 2), slim('t1', 1025, 2));
    expect(compare(expected, all, listed)[0]).toMatchObject({ expectedCount: 3, sameTransactions: true, ok: true });
    // the service kept the pending one beside the booked one: one more, and not the same transactions
    const kept = readBack(
      slim('big', '900719925474099315', '1'),
      slim('b1', -500, 2),
      slim('t1', 1025, 2),
      slim('p1', -5, 0),
    );
    expect(compare(expected, kept, listed)[0]).toMatchObject({ actualCount: 4, sameTransactions: false, ok: false });
  });
  test("the service's transactions carry no providerTransactionId: compared by counts and sums (null)", async () => {
    const expected = await fileOf(['t1', '10.25'], ['t2', '0.25']);
    const [row] = compare(expected, readBack(slim(undefined, 25, 2), slim(undefined, 1025, 2)), listed);
    expect(row).toMatchObject({ sameTransactions: null, ok: true });
  });
});
