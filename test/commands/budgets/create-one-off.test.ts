import { describe, expect } from 'vitest';
import { newCmdCreateOneOff } from '../../../src/commands/budgets/create-one-off.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
const march = [
  '--name',
  'March',
  '--amount',
  '100',
  '--currency',
  'SEK',
  '--start',
  '2026-03-01',
  '--end',
  '2026-03-31',
];

describe('budgets create-one-off: flags', () => {
  optionCases('budgets create-one-off', newCmdCreateOneOff, [
    {
      name: 'the end is the last millisecond of its day',
      args: march,
      options: {
        request: { oneOffPeriodicity: { start: Date.UTC(2026, 2, 1), end: Date.UTC(2026, 3, 1) - 1 }, filter: {} },
      },
    },
    {
      name: 'epoch milliseconds',
      args: [...march.slice(0, 6), '--start', '1772323200000', '--end', '1772409600000'],
      options: { request: { oneOffPeriodicity: { start: 1772323200000 } } },
    },
    {
      name: 'more decimals than the currency has',
      args: [...march.slice(0, 3), '12.345', ...march.slice(4)],
      code: 2,
      stderr: '--amount 12.345 has 3 decimals; SEK has 2',
    },
    {
      name: 'start after end',
      args: [...march.slice(0, 6), '--start', '2026-04-01', '--end', '2026-03-01'],
      code: 2,
      stderr: '--start is after --end',
    },
    {
      name: 'a calendar-invalid day',
      args: [...march.slice(0, 6), '--start', '2026-02-30', '--end', '2026-03-01'],
      code: 2,
      stderr: '--start must be a date YYYY-MM-DD or epoch milliseconds',
    },
    {
      name: '--end is required',
      args: march.slice(0, 8),
      code: 2,
      stderr: 'error: --end is required (last day, YYYY-MM-DD (inclusive) or epoch ms)\n',
    },
  ]);
});

describe('budgets create-one-off: output', () => {
  cliCases('budgets create-one-off', () => sb.env, [
    {
      name: 'json: the budget as created',
      args: [...march, '--tag', 'party', '-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toMatchObject({ periodicityType: 'ONE_OFF', filter: { tags: [{ key: 'party' }] } }),
    },
    { name: 'a table: the dates', args: [...march, '-o', 'table'], code: 0, stdout: '2026-03-01 to 2026-03-31' },
  ]);
});
