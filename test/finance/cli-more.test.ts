// More of the finance commands, in-process (run(argv, io)) against a sandbox on loopback.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { addAccount, addTx } from './helpers.js';
import { categoryByCode } from '../../src/sandbox/categories.js';

let t: TestEnv;
let env: Record<string, string>;
let accountId: string;
const cat = (code: string) => categoryByCode(code)!.id;
beforeAll(async () => {
  t = await startTestSandbox();
  const u = await userWithToken(t.sandbox, ['user:read']);
  const s = t.sandbox.store;
  const a = addAccount(s, u.userId);
  accountId = a.id;
  addTx(s, a, '-45.50', '2026-03-03', { categoryId: cat('expenses:food.coffee'), description: 'Espresso House' });
  addTx(s, a, '-30.25', '2026-03-10', { categoryId: cat('expenses:food.coffee'), description: 'Pressbyrån' });
  addTx(s, a, '-4.10', '2026-03-12', {
    categoryId: cat('expenses:food.coffee'),
    description: 'Kaffebaren',
    status: 'PENDING',
  });
  addTx(s, a, '-12.00', '2026-04-02', { categoryId: cat('expenses:food.coffee'), description: 'Espresso House' });
  env = { ...t.env, BANKCTL_USER: u.userId };
});
afterAll(() => t.close());
const cli = (args: string[]) => runCli(args, { env });

describe('budgets commands', () => {
  test('create-one-off with dates, details as a table with totals, transactions, update keeps what is not given', async () => {
    const c = await cli([
      'budgets',
      'create-one-off',
      '--name',
      'March coffee',
      '--amount',
      '100',
      '--currency',
      'sek',
      '--start',
      '2026-03-01',
      '--end',
      '2026-03-31',
      '--category',
      'expenses:food.coffee',
      '-o',
      'json',
    ]);
    expect(c.code).toBe(0);
    const b = JSON.parse(c.stdout);
    // --end is inclusive: the last millisecond of 31 March
    expect(b.oneOffPeriodicity).toEqual({ start: Date.UTC(2026, 2, 1), end: Date.UTC(2026, 3, 1) - 1 });
    const d = await cli(['budgets', 'details', b.id, '-o', 'table']);
    expect(d.code).toBe(0);
    expect(d.stdout).toMatch(/2026-03-01 to 2026-03-31 .*79\.85 SEK.*100 SEK.*79% \[███████████████░░░░░\]/);
    expect(d.stderr).toContain('total 79.85 SEK');
    const tx = await cli([
      'budgets',
      'transactions',
      b.id,
      '--start',
      '2026-03-05',
      '--end',
      '2026-03-31',
      '-o',
      'csv',
    ]);
    expect(tx.stdout.split('\r\n').filter(Boolean)).toEqual([
      // csv keeps the currency in its own column (issue 18)
      // and whether each is pending, as the reference's BudgetTransaction says
      'date,description,amount,currency,category,pending,account,id',
      expect.stringMatching(
        new RegExp(`^2026-03-10,Pressbyrån,-30.25,SEK,expenses:food.coffee,false,${accountId},[0-9a-f]+$`),
      ),
      expect.stringMatching(
        new RegExp(`^2026-03-12,Kaffebaren,-4.10,SEK,expenses:food.coffee,true,${accountId},[0-9a-f]+$`),
      ),
    ]);
    const up = await cli(['budgets', 'update', b.id, '--amount', '80.5', '-o', 'json']);
    expect(up.code).toBe(0);
    expect(JSON.parse(up.stdout)).toMatchObject({
      name: 'March coffee',
      amount: { unscaledValue: 805, scale: 1, currencyCode: 'SEK' },
      filter: { categories: [{ code: 'expenses:food.coffee' }] },
      oneOffPeriodicity: b.oneOffPeriodicity,
    });
    const wrong = await cli(['budgets', 'update', b.id, '--period', 'WEEK']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/one-off/);
    const gone = await cli(['budgets', 'update', 'nope', '--amount', '1']);
    expect(gone.code).toBe(4);
    expect((await cli(['budgets', 'delete', b.id, '--yes'])).code).toBe(0);
    expect((await cli(['budgets', 'list', '--include-archived', '-o', 'json'])).stdout.trim()).toBe('[]');
  });

  test('flag mistakes are usage errors before anything is sent', async () => {
    for (const [args, msg] of [
      [
        ['budgets', 'create-recurring', '--name', 'x', '--amount', '10', '--currency', 'SEK', '--category', 'food'],
        /--category takes an expense category code/,
      ],
      [
        [
          'budgets',
          'create-one-off',
          '--name',
          'x',
          '--amount',
          '10',
          '--currency',
          'SEK',
          '--start',
          '2026-02-30',
          '--end',
          '2026-03-01',
        ],
        /--start must be a date/,
      ],
      [
        [
          'budgets',
          'create-one-off',
          '--name',
          'x',
          '--amount',
          '10',
          '--currency',
          'SEK',
          '--start',
          '2026-04-01',
          '--end',
          '2026-03-01',
        ],
        /--start is after --end/,
      ],
      [['budgets', 'create-recurring', '--name', 'x', '--amount', '0', '--currency', 'SEK'], /greater than zero/],
      [['budgets', 'create-recurring', '--name', 'x', '--amount', '1', '--currency', 'kronor'], /ISO 4217/],
      [
        ['budgets', 'create-recurring', '--name', 'x', '--amount', '1', '--currency', 'SEK', '--data', '{'],
        /--data is not valid JSON/,
      ],
      [['statistics', 'query', '--type', 'expenses-by-kategory', '--resolution', 'MONTHLY'], /unknown statistics type/],
      [
        ['statistics', 'query', '--type', 'expenses-by-category/by-count', '--resolution', 'YEARLY'],
        /not available for expenses-by-category\/by-count/,
      ],
      [['calendar', 'period', '2026/01'], /YYYY, YYYY-MM or YYYY-MM-DD/],
      [
        ['calendar', 'periods', '--from', '2026-05-01', '--to', '2026-04-01'],
        /--from 2026-05-01 is after --to 2026-04-01/,
      ],
      [
        [
          'transfers',
          'create',
          '--source',
          `platform://${'a'.repeat(32)}`,
          '--destination',
          'se-pg://4-2',
          '--amount',
          '10',
          '--currency',
          'SEK',
        ],
        /--message is required for payments/,
      ],
      [
        [
          'transfers',
          'create',
          '--source',
          `platform://${'a'.repeat(32)}`,
          '--destination',
          'se://33001984',
          '--amount',
          '1e3',
          '--currency',
          'SEK',
        ],
        /--amount must be a positive decimal/,
      ],
      [['insights', 'action', 'x', '--action', 'do it'], /--action must be an action type/],
      [['search', 'coffee', '--limit', '0'], /--limit must be a whole number from 1 to 1000, got 0/],
    ] as Array<[string[], RegExp]>) {
      const r = await cli(['-v', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(msg);
      // -v would trace any request: none was made
      expect(r.stderr, args.join(' ')).not.toMatch(/^\* (GET|POST|PUT|DELETE) /m);
    }
  });
});

describe('reports get after the hour', () => {
  test('exit 4 once the report has expired by the sandbox clock', async () => {
    const c = await cli(['reports', 'create', '--account', accountId, '-o', 'json']);
    expect(c.code).toBe(0);
    const id = JSON.parse(c.stdout).id;
    expect((await cli(['reports', 'get', id, '-o', 'json'])).code).toBe(0);
    t.sandbox.clock.advance(60 * 60_000 + 1);
    const r = await cli(['reports', 'get', id]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/HTTP 404.*expire/);
  });
});
