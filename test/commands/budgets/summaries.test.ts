import { describe, expect, test } from 'vitest';
import { newCmdSummaries } from '../../../src/commands/budgets/summaries.js';
import { progress } from '../../../src/commands/statistics/bars.js';
import { runCli, spawnCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { COFFEE, coffee, today } from './shared.js';

const sb = useSandbox({ user: true });

async function coffeeBudget(amount: string): Promise<void> {
  coffee(sb.t.sandbox.store, sb.userId, [[today(sb.t.sandbox.store), '-20466.00']]);
  const r = await runCli(
    ['budgets', 'create-recurring', '--name', 'Coffee', '--amount', amount, '--currency', 'SEK', '--category', COFFEE],
    { env: sb.env },
  );
  expect(r.code, r.stderr).toBe(0);
}

describe('budgets summaries: flags', () => {
  optionCases('budgets summaries', newCmdSummaries, [
    { name: 'current budgets', args: [], options: { includeArchived: false } },
    { name: 'archived too', args: ['--include-archived'], options: { includeArchived: true } },
  ]);
});

describe('budgets summaries: output', () => {
  cliCases('budgets summaries', () => sb.env, [
    { name: 'none yet', args: ['-o', 'json'], code: 0, stdout: /^\[\]\n$/ },
    {
      name: 'json: the current period of each budget, amounts exact',
      before: () => coffeeBudget('5000'),
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toEqual([
          expect.objectContaining({
            budgetSpecification: expect.objectContaining({
              name: 'Coffee',
              amount: { unscaledValue: 5000, scale: 0, currencyCode: 'SEK' },
            }),
            budgetPeriods: expect.objectContaining({
              spentAmount: { unscaledValue: 2046600, scale: 2, currencyCode: 'SEK' },
            }),
          }),
        ]),
    },
  ]);
});

// issue 16: 20466 spent of 5000 is 409% of the target, which is 309% over it, not "409% over"
test('a budget overspent: the table says by how much it is over (spawned)', async () => {
  const r = await spawnCli(['budgets', 'summaries', '-o', 'table'], { env: sb.env });
  expect(r.code, r.stderr).toBe(0);
  const row = r.stdout.split('\n').find((l) => l.includes('Coffee'))!;
  expect(row).toContain('20466.00 SEK');
  expect(row).toContain('5000 SEK');
  expect(row).toMatch(/309% over \[█{20}\]/);
  expect(row).not.toContain('409% over');
});

test('progress: under, at, just over and far over the target', () => {
  expect(progress('2500', '5000', 10)).toBe('50% [█████░░░░░]');
  expect(progress('5000.00', '5000', 10)).toBe('100% [██████████]');
  expect(progress('5001', '5000', 10)).toBe('<1% over [██████████]');
  expect(progress('5050', '5000', 10)).toBe('1% over [██████████]');
  expect(progress('20466.00', '5000', 10)).toBe('309% over [██████████]');
  expect(progress('1', '0', 10)).toBe('');
});
