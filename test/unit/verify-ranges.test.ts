// verify's cut of a file's dates into ranges read side by side: adjacent whole days from the first to
// the last, none twice, about as many transactions each.
import { describe, expect, test } from 'vitest';
import { dateRanges, type ExpectedTotals } from '../../src/push/verify.js';

const DAY = 86_400_000;
const next = (d: string) => new Date(Date.parse(d) + DAY).toISOString().slice(0, 10);

function expected(perDay: Array<[string, number]>): ExpectedTotals {
  const days = perDay.map(([d]) => Date.parse(d));
  return {
    accounts: new Map(),
    samples: new Map(),
    invalid: 0,
    minDate: Math.min(...days) + 3_600_000,
    maxDate: Math.max(...days) + 3_600_000,
    perDay: new Map(perDay.map(([d, n]) => [Date.parse(d) / DAY, n])),
  };
}

describe('dateRanges', () => {
  test.each([1, 2, 4, 7, 64])('%i parts: adjacent, from the first day to the last, balanced', (parts) => {
    const perDay: Array<[string, number]> = [];
    for (let k = 0; k < 90; k++)
      perDay.push([new Date(Date.UTC(2025, 0, 1) + k * 2 * DAY).toISOString().slice(0, 10), 1 + (k % 5)]);
    const r = dateRanges(expected(perDay), parts);
    expect(r.length).toBeLessThanOrEqual(parts);
    expect(r[0]!.gte).toBe('2025-01-01');
    expect(r.at(-1)!.lte).toBe(perDay.at(-1)![0]);
    for (let k = 0; k < r.length; k++) {
      expect(r[k]!.gte <= r[k]!.lte).toBe(true);
      if (k > 0) expect(r[k]!.gte).toBe(next(r[k - 1]!.lte));
    }
    const total = perDay.reduce((n, [, c]) => n + c, 0);
    const counts = r.map(({ gte, lte }) => perDay.filter(([d]) => d >= gte && d <= lte).reduce((n, [, c]) => n + c, 0));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(total);
    if (parts <= 7) {
      expect(r).toHaveLength(parts);
      for (const c of counts) expect(c).toBeLessThanOrEqual(total / parts + 5);
    }
  });

  test('one day is one range, whatever the parts; no dates is no range (read everything)', () => {
    expect(dateRanges(expected([['2025-03-04', 1000]]), 4)).toEqual([{ gte: '2025-03-04', lte: '2025-03-04' }]);
    expect(
      dateRanges(
        {
          accounts: new Map(),
          invalid: 0,
          minDate: Infinity,
          maxDate: -Infinity,
          perDay: new Map(),
          samples: new Map(),
        },
        4,
      ),
    ).toEqual([]);
  });
});
