import { describe } from 'vitest';
import { newCmdPeriod } from '../../../src/commands/calendar/period.js';
import { cliCases, json, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });

describe('calendar period: flags', () => {
  optionCases('calendar period', newCmdPeriod, [
    { name: 'a month', args: ['2026-12'], options: { period: '2026-12' } },
    {
      name: 'a day and a resolution',
      args: ['2026-05-24', '--resolution', 'MONTHLY'],
      options: { resolution: 'MONTHLY' },
    },
    {
      name: 'not a period',
      args: ['May'],
      code: 2,
      stderr: 'the period must be YYYY, YYYY-MM or YYYY-MM-DD, got "May"',
    },
    { name: 'the period is required', args: [], code: 2, stderr: "missing required argument 'period'" },
  ]);
});

describe('calendar period: output', () => {
  cliCases('calendar period', () => sb.env, [
    {
      name: 'a calendar month as JSON',
      args: ['2026-12', '--resolution', 'MONTHLY', '-o', 'json'],
      code: 0,
      stdout: json([{ name: '2026-12', resolution: 'MONTHLY' }]),
    },
    {
      name: 'a year is twelve periods',
      args: ['2026', '--resolution', 'MONTHLY', '-o', 'ndjson'],
      code: 0,
      stdout: (out) => {
        if (out.trim().split('\n').length !== 12) throw new Error(`expected 12 lines, got:\n${out}`);
      },
    },
    { name: '--help shows examples', args: ['--help'], code: 0, stdout: 'Examples:' },
  ]);
});
