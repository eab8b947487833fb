import { describe, expect, test } from 'vitest';
import { newCmdPeriods } from '../../../src/commands/calendar/periods.js';
import { cliCases, json, optionCases, useSandbox } from '../../helpers/commands.js';
import { runWithAnswer } from '../../helpers/scripted-server.js';

const sb = useSandbox({ user: true });

describe('calendar periods: flags', () => {
  optionCases('calendar periods', newCmdPeriods, [
    {
      name: 'dates and a resolution',
      args: ['--from', '2026-01-01', '--to', '2026-03-31', '--resolution', 'MONTHLY'],
      options: { from: '2026-01-01', to: '2026-03-31', resolution: 'MONTHLY' },
    },
    { name: '--from is required', args: ['--to', '2026-01-01'], code: 2, stderr: '--from' },
    {
      name: 'a calendar-invalid date',
      args: ['--from', '2026-02-30', '--to', '2026-03-01'],
      code: 2,
      stderr: '--from must be a date YYYY-MM-DD, got "2026-02-30"',
    },
    { name: '--from after --to', args: ['--from', '2026-03-01', '--to', '2026-01-01'], code: 2, stderr: 'after' },
    {
      name: 'an unknown resolution',
      args: ['--from', '2026-01-01', '--to', '2026-01-02', '--resolution', 'DAILY'],
      code: 2,
    },
  ]);
});

describe('calendar periods: output', () => {
  cliCases('calendar periods', () => sb.env, [
    {
      name: 'a quarter of calendar months as JSON',
      args: ['--from', '2026-01-15', '--to', '2026-03-15', '--resolution', 'MONTHLY', '-o', 'json'],
      code: 0,
      stdout: json([{ name: '2026-01' }, { name: '2026-02' }, { name: '2026-03' }]),
    },
    {
      name: 'a table with the first and last day and the length',
      args: ['--from', '2026-02-01', '--to', '2026-02-01', '--resolution', 'MONTHLY', '-o', 'table'],
      code: 0,
      stdout: [/2026-02-01/, /2026-02-28/, /\b28\b/],
    },
    { name: '--help shows examples', args: ['--help'], code: 0, stdout: 'Examples:' },
  ]);
});

describe('calendar periods against the reference (no resolution parameter)', () => {
  // the reference answers the user's own resolution whatever was asked
  const salary = [
    {
      name: '2026-02',
      resolution: 'MONTHLY_ADJUSTED',
      startDate: Date.UTC(2026, 0, 23),
      endDate: Date.UTC(2026, 1, 24),
    },
  ];
  test('periods of another resolution than asked: shown, with a warning naming both', async () => {
    const args = ['calendar', 'periods', '--from', '2026-02-01', '--to', '2026-02-28', '--resolution', 'MONTHLY'];
    const r = await runWithAnswer(salary, [...args, '-o', 'json'], sb.env.BANKCTL_CONFIG_DIR!);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(salary);
    expect(r.stderr).toContain('warning: asked for MONTHLY periods, the service answered MONTHLY_ADJUSTED');
    const same = await runWithAnswer(
      salary,
      ['calendar', 'periods', '--from', '2026-02-01', '--to', '2026-02-28'],
      sb.env.BANKCTL_CONFIG_DIR!,
    );
    expect(same.stderr).not.toContain('warning');
  });
});
