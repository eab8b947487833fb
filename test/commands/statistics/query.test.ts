import { describe, expect, test } from 'vitest';
import { newCmdQuery } from '../../../src/commands/statistics/query.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { scriptedServer } from '../../helpers/scripted-server.js';

const sb = useSandbox({ months: 3 });
const monthly = ['--type', 'expenses-by-primary-category', '--resolution', 'MONTHLY'];

describe('statistics query: flags', () => {
  optionCases('statistics query', newCmdQuery, [
    {
      name: 'types repeated and comma-separated, one description, periods',
      args: [
        '--type',
        'expenses-by-category,income-by-category',
        '--resolution',
        'MONTHLY',
        '--description',
        'd1',
        '--period',
        '2026',
        '--pad',
      ],
      options: {
        types: ['expenses-by-category', 'income-by-category'],
        resolution: 'MONTHLY',
        description: 'd1',
        periods: ['2026'],
        padResultUntilToday: true,
      },
    },
    {
      name: 'several descriptions are a list',
      args: [...monthly, '--description', 'a', '--description', 'b'],
      options: { description: ['a', 'b'] },
    },
    {
      name: 'an unknown type',
      args: ['--type', 'spending', '--resolution', 'MONTHLY'],
      code: 2,
      stderr: '--type: unknown statistics type "spending"',
    },
    {
      name: 'a resolution the type does not have',
      args: ['--type', 'income-by-category', '--resolution', 'DAILY'],
      code: 2,
      stderr: '--resolution DAILY is not available for income-by-category',
    },
    {
      name: 'a malformed period',
      args: [...monthly, '--period', 'May'],
      code: 2,
      stderr: '--period "May" must be YYYY',
    },
    // before, these matched nothing and printed [] with exit 0
    ...['2026-13', '2026-00', '2026-02-30', '2026:54'].map((p) => ({
      name: `a period not in the calendar: ${p}`,
      args: [...monthly, '--period', p],
      code: 2,
      stderr: `--period "${p}" must be YYYY, YYYY-MM, YYYY:WW or YYYY-MM-DD, a real one`,
    })),
    {
      name: 'a leap day is one',
      args: ['--type', 'expenses-by-primary-category', '--resolution', 'DAILY', '--period', '2028-02-29'],
      options: { periods: ['2028-02-29'] },
    },
    {
      name: 'a day with MONTHLY matches no statistic',
      args: [...monthly, '--period', '2028-02-29'],
      code: 2,
      stderr: '--period 2028-02-29 is a day: with --resolution MONTHLY every statistic is a month',
    },
    { name: '--resolution is required', args: ['--type', 'expenses-by-category'], code: 2, stderr: '--resolution' },
  ]);
});

describe('statistics query: output', () => {
  cliCases('statistics query', () => sb.env, [
    {
      name: 'json: the statistics as returned',
      args: [...monthly, '-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)[0]).toMatchObject({
          type: 'expenses-by-primary-category',
          period: expect.stringMatching(/^\d{4}-\d{2}$/),
        }),
    },
    {
      name: 'a table is a bar chart with exact values',
      args: [...monthly, '-o', 'table'],
      code: 0,
      stdout: [/expenses:\w+/, /\d+\.\d{2}/, /█/],
    },
    {
      name: 'csv has the value and its currency in two columns',
      args: [...monthly, '-o', 'csv'],
      code: 0,
      stdout: [/^type,period,description,payload,value,currency\r\n/, /,expenses:food,\d+\.\d{2},SEK\r\n/],
    },
    {
      name: 'a count has no currency: the currency cell is empty',
      args: ['--type', 'expenses-by-category/by-count', '--resolution', 'MONTHLY', '-o', 'csv'],
      code: 0,
      stdout: [/^type,period,description,payload,value,currency\r\n/, /,expenses:[\w.]+,\d+,\r\n/],
    },
  ]);
});

describe('statistics query against the reference: one description a query, negative expenses', () => {
  // the reference's example: expenses are negative values
  const stat = (description: string, value: number, period = '2026-01') => ({
    description,
    payload: null,
    period,
    resolution: 'MONTHLY',
    type: 'expenses-by-category',
    userId: 'u1',
    value,
  });
  async function service(answers: Record<string, unknown[]>) {
    const s = await scriptedServer(() => (_req, res, body) => {
      const d = JSON.parse(body).description as string;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers[d] ?? []));
    });
    const env = { BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'token-1', BANKCTL_CONFIG_DIR: tempDir(), COLUMNS: '140' };
    return { ...s, env };
  }
  const args = ['statistics', 'query', '--type', 'expenses-by-category', '--resolution', 'MONTHLY'];

  test('several --description: a query each with a string description, the answers one list', async () => {
    const s = await service({ a: [stat('a', -1298.5)], b: [stat('b', -20)] });
    try {
      const r = await runCli([...args, '--description', 'a', '--description', 'b', '-o', 'json'], { env: s.env });
      expect(r.code, r.stderr).toBe(0);
      expect(s.seen.map((x) => JSON.parse(x.body).description).sort()).toEqual(['a', 'b']);
      expect(JSON.parse(r.stdout).map((x: { description: string }) => x.description)).toEqual(['a', 'b']);
    } finally {
      await s.close();
    }
  });

  test("the table's WHAT is the description (what the row is about), the payload after it", async () => {
    // the reference's example: the description is the category id, the payload a secondary id
    const row = { ...stat('fe9e199c2ca94c12baf1f3eb4a4122de', -1298.5), payload: '690667930d7e4f2ba0d9aa5f7d2a1941' };
    const s = await service({ x: [row] });
    try {
      const r = await runCli([...args, '--description', 'x', '-o', 'table'], { env: s.env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('fe9e199c2ca94c12baf1f3eb4a4122de (690667930d7e4f2ba0d9aa5f7d2a1941)');
    } finally {
      await s.close();
    }
  });

  test('negative values: bars by size, the largest expense first', async () => {
    const s = await service({ x: [stat('small', -20), stat('large', -1298.5)] });
    try {
      const r = await runCli([...args, '--description', 'x', '-o', 'table'], { env: s.env });
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.split('\n').filter((l) => /small|large/.test(l));
      expect(lines.map((l) => (/large/.test(l) ? 'large' : 'small'))).toEqual(['large', 'small']);
      // a full bar for the largest, a short one for the other (not an empty chart)
      expect(lines[0]).toMatch(/-1298\.5.*█{10,}/);
      expect(lines[1]).toMatch(/-20\b.*[█▏▎▍▌▋▊▉]/);
    } finally {
      await s.close();
    }
  });
});
