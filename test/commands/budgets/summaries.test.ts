import { describe, expect, test } from 'vitest';
import { newCmdSummaries } from '../../../src/commands/budgets/summaries.js';
import { progress } from '../../../src/commands/statistics/bars.js';
import { runCli, spawnCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { COFFEE, coffee, today } from './shared.js';
import { runWithAnswer } from '../../helpers/scripted-server.js';

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
            budgetPeriod: expect.objectContaining({
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

// The vendor reference's BudgetSummary has the current period under `budgetPeriod`; the older
// Swagger (and sandboxes before 2026-11-30) under `budgetPeriods`. Reading only the second showed an
// empty period, spent and progress against the real service, with exit 0.
describe('budgets summaries and recommended, as the service answers them', () => {
  const budget = {
    amount: { currencyCode: 'EUR', scale: 2, unscaledValue: 1050 },
    archived: false,
    created: 1552395986000,
    filter: { categories: [{ code: 'expenses:food.coffee' }] },
    id: 'e2b746ed27c542ce846a8d693474df21',
    name: 'Coffee budget',
    periodicityType: 'RECURRING',
    recurringPeriodicity: { periodUnit: 'WEEK' },
  };
  const period = {
    end: 1549976786000,
    spentAmount: { currencyCode: 'EUR', scale: 2, unscaledValue: 525 },
    start: 1549458000000,
  };
  test.each([
    ['budgetPeriod', 'the vendor reference'],
    ['budgetPeriods', 'the older Swagger'],
  ])('summaries with the period under %s (%s): csv has the period, spent, target and progress', async (key) => {
    const body = { budgetSummaries: [{ budgetSpecification: budget, [key]: period }] };
    const r = await runWithAnswer(body, ['budgets', 'summaries', '-o', 'csv'], sb.env.BANKCTL_CONFIG_DIR!);
    expect(r.code, r.stderr).toBe(0);
    const [head, row] = r.stdout.split('\r\n');
    expect(head).toBe('id,name,period,spent,spent_currency,target,target_currency,progress');
    expect(row).toBe(
      'e2b746ed27c542ce846a8d693474df21,Coffee budget,2019-02-06 to 2019-02-12,5.25,EUR,10.50,EUR,50% [██████████░░░░░░░░░░]',
    );
  });

  test("recommended: the reference's {recommendedBudgets: [...]} is listed, amounts exact", async () => {
    const recommended = { amount: budget.amount, filter: budget.filter, name: 'Coffee budget' };
    const body = { recommendedBudgets: [{ ...recommended, recurringPeriodicity: { periodUnit: 'WEEK' } }] };
    const r = await runWithAnswer(body, ['budgets', 'recommended', '-o', 'csv'], sb.env.BANKCTL_CONFIG_DIR!);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Coffee budget');
    expect(r.stdout).toContain('10.50,EUR');
  });
});
