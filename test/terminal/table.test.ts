// The table layout on its own: gh-like rows, amounts aligned on the decimal point, fitted to a
// width (ids shortened in the middle only on a terminal, text cut with an ellipsis), --wide.
import { describe, expect, test } from 'vitest';
import { Table, textWidth, truncateMiddle, verticalTable } from '../../src/output/table.js';

const head = ['date', 'description', 'amount', 'id'];
const rows = [
  ['2026-11-27', 'Max Burgers, Stockholm city centre, the big one', '-517.68 SEK', '6f00d8a1b2c3d4e5f6a7b8c9d0f9fded'],
  ['2026-11-26', 'Salary', '25000.00 SEK', '0123456789abcdef0123456789abcdef'],
  ['2026-11-25', 'Fika', '0.5 SEK', 'fedcba9876543210fedcba9876543210'],
];

describe('Table', () => {
  test('a header row, no rule lines, columns two spaces apart', () => {
    const out = new Table(head, rows, { width: Infinity }).rows(rows);
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^DATE\s+DESCRIPTION\s+AMOUNT\s+ID$/);
    expect(out).not.toMatch(/[│┌─┼]/);
    // full values when there is no width limit
    expect(out).toContain('6f00d8a1b2c3d4e5f6a7b8c9d0f9fded');
    expect(out).toContain('Max Burgers, Stockholm city centre, the big one');
  });

  test('amounts right-aligned on the decimal point', () => {
    const lines = new Table(head, rows, { width: Infinity }).rows(rows).trimEnd().split('\n').slice(1);
    const dots = lines.map((l) => l.indexOf('.'));
    expect(new Set(dots).size).toBe(1);
    expect(lines[2]).toContain('    0.5 SEK ');
  });

  test('fits 80 columns on a terminal: ids shortened in the middle, text with an ellipsis, dates and amounts whole', () => {
    const out = new Table(head, rows, { width: 80, tty: true }).rows(rows);
    for (const l of out.trimEnd().split('\n')) expect(textWidth(l)).toBeLessThanOrEqual(80);
    expect(out).toContain('2026-11-27');
    expect(out).toContain('-517.68 SEK');
    expect(out).toContain('25000.00 SEK');
    expect(out).toMatch(/Max Burgers[^\n]*…/);
  });

  test('an amount with an unusual currency code (USDC, sek) keeps its column an amount column, never cut', () => {
    const odd = [
      ['2026-01-01', 'Grocery store downtown', '-1234567.89 SEK', '3f1c2a9b8c7d6e5f4a3b2c1d0e9fa8b71'],
      ['2026-01-01', 'Grocery store downtown', '-50.00 USDC', '3f1c2a9b8c7d6e5f4a3b2c1d0e9fa8b72'],
      ['2026-01-01', 'Grocery store downtown', '987654321.01 sek', '3f1c2a9b8c7d6e5f4a3b2c1d0e9fa8b73'],
      [
        '2026-01-01',
        'Grocery store downtown',
        '0.0000000000000000000000000000000001 SEK',
        '3f1c2a9b8c7d6e5f4a3b2c1d0e9fa8b74',
      ],
    ];
    const out = new Table(head, odd, { width: 80, tty: true }).rows(odd);
    for (const v of ['-1234567.89 SEK', '-50.00 USDC', '987654321.01 sek', '0.0000000000000000000000000000000001 SEK'])
      expect(out).toContain(v);
  });

  test('an enum column (a status) and a first column of single words (what names the row) are not cut', () => {
    const credHead = ['id', 'providerName', 'status', 'statusUpdated', 'statusPayload', 'updated'];
    const creds = [
      [
        'e042502de73f5eaf6802f86c5854a3f5',
        'se-test-other-password',
        'AWAITING_THIRD_PARTY_APP_AUTHENTICATION',
        '2026-11-29T12:16:20.849Z',
        '',
        '2026-11-29T12:02:58.914Z',
      ],
      [
        'f042502de73f5eaf6802f86c5854a3f6',
        'se-test-password',
        'AWAITING_SUPPLEMENTAL_INFORMATION',
        '2026-11-29T12:16:20.849Z',
        '',
        '2026-11-29T12:02:58.914Z',
      ],
    ];
    const out = new Table(credHead, creds, { width: 80, tty: true }).rows(creds);
    expect(out).toContain('AWAITING_THIRD_PARTY_APP_AUTHENTICATION');
    expect(out).toContain('AWAITING_SUPPLEMENTAL_INFORMATION');
    const kinds = [
      ['availableBalanceExcludingCredit', '90071992547409.93 SEK', '9007199254740993', '2026-11-29T12:00:31Z'],
      ['availableBalanceIncludingCredit', '90071992547409.93 SEK', '9007199254740993', '2026-11-29T12:00:31Z'],
      ['bookedBalance', '90071992547409.93 SEK', '9007199254740993', '2026-11-29T12:00:31Z'],
    ];
    const balances = new Table(['kind', 'amount', 'minorUnits', 'refreshed'], kinds, { width: 80, tty: true }).rows(
      kinds,
    );
    expect(balances).toContain('availableBalanceExcludingCredit');
    expect(balances).toContain('availableBalanceIncludingCredit');
  });

  test('a narrow terminal shortens ids as 6f00d8…f9fded', () => {
    const out = new Table(head, rows, { width: 60, tty: true }).rows(rows);
    expect(out).toContain('6f00d8…f9fded');
    for (const l of out.trimEnd().split('\n')) expect(textWidth(l)).toBeLessThanOrEqual(60);
  });

  test('ids are not shortened off a terminal, and --wide keeps everything on one', () => {
    expect(new Table(head, rows, { width: 60, tty: false }).rows(rows)).toContain('6f00d8a1b2c3d4e5f6a7b8c9d0f9fded');
    const wide = new Table(head, rows, { width: 60, tty: true, wide: true }).rows(rows);
    expect(wide).toContain('6f00d8a1b2c3d4e5f6a7b8c9d0f9fded');
    expect(wide).toContain('Max Burgers, Stockholm city centre, the big one');
  });

  test('a later row wider than the first ones is cut to the layout on a terminal', () => {
    const t = new Table(head, rows, { width: 80, tty: true });
    const first = t.rows(rows);
    const later = t.rows([['2026-01-01', 'x'.repeat(200), '1.00 SEK', 'ab'.repeat(16)]]);
    expect(textWidth(later.trimEnd())).toBeLessThanOrEqual(80);
    expect(first.split('\n')[0]).toMatch(/^DATE/);
  });

  test('truncateMiddle and the vertical table', () => {
    expect(truncateMiddle('6f00d8a1b2c3d4e5f6a7b8c9d0f9fded', 13)).toBe('6f00d8…f9fded');
    const v = verticalTable(
      [
        ['id', '6f00d8a1b2c3d4e5f6a7b8c9d0f9fded'],
        ['status', 'UPDATED'],
      ],
      { width: Infinity },
    );
    expect(v).toMatch(/^id\s+6f00d8a1b2c3d4e5f6a7b8c9d0f9fded\nstatus\s+UPDATED\n$/);
  });
});

test('a tab in a cell is a space, so the columns after it stay where they are', () => {
  const tabbed = [['a\tb\tc', 'x']];
  const out = new Table(['text', 'next'], tabbed, { width: Infinity }).rows(tabbed);
  expect(out).not.toContain('\t');
  expect(out.split('\n')[1]).toBe('a b c  x');
});
