// The finance commands as a user runs them, in-process (run(argv, io)) against a sandbox on loopback:
// flags and output only, so no process is needed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { raw, startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { generateDemoData } from '../../src/sandbox/demo-data.js';
import { categoryByCode } from '../../src/sandbox/categories.js';
import { addDecimals } from '../../src/output/money.js';

let t: TestEnv;
let env: Record<string, string>;
let userId: string;
beforeAll(async () => {
  t = await startTestSandbox();
  const u = await userWithToken(t.sandbox, ['user:read']);
  userId = u.userId;
  generateDemoData(t.sandbox.store, {
    userId,
    credentialsIds: ['f'.repeat(32)],
    providerName: 'se-test-password',
    currencyCode: 'SEK',
    seed: userId,
    now: t.sandbox.clock.now(),
    months: 6,
  });
  env = { ...t.env, BANKCTL_USER: userId };
});
afterAll(() => t.close());

const cli = (args: string[]) => runCli(args, { env });
const inproc = cli;
const month = () => new Date(t.sandbox.clock.now()).toISOString().slice(0, 7);

/** What the user spent on coffee this calendar month, summed exactly from the store. */
function coffeeThisMonth(): string {
  const coffee = categoryByCode('expenses:food.coffee')!.id;
  const amounts = [...t.sandbox.store.transactions.values()]
    .filter((x) => x.userId === userId && x.categoryId === coffee && x.bookedDate.startsWith(month()))
    .map((x) => x.amount.replace('-', ''));
  return addDecimals(amounts.length ? amounts : ['0.00']);
}

describe('budgets', () => {
  test('create-recurring keeps the amount exact; summaries show spent against target with a progress bar', async () => {
    const created = await cli([
      'budgets',
      'create-recurring',
      '--name',
      'Coffee',
      '--amount',
      '400.50',
      '--currency',
      'SEK',
      '--period',
      'MONTH',
      '--category',
      'expenses:food.coffee',
      '-o',
      'json',
    ]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const b = JSON.parse(created.stdout);
    expect(b).toMatchObject({
      name: 'Coffee',
      amount: { unscaledValue: 40050, scale: 2, currencyCode: 'SEK' },
      periodicityType: 'RECURRING',
      recurringPeriodicity: { periodUnit: 'MONTH' },
    });

    const table = await cli(['budgets', 'summaries', '-o', 'table']);
    expect(table.code).toBe(0);
    const spent = coffeeThisMonth();
    const row = table.stdout.split('\n').find((l) => l.includes('Coffee'))!;
    expect(row).toContain(`${spent} SEK`);
    expect(row).toContain('400.50 SEK');
    // the percentage of the target, or over it by how much (issue 16: 150% of the target is "50% over")
    const pct = (BigInt(spent.replace('.', '')) * 100n) / 40050n;
    const shown = pct > 100n || (pct === 100n && spent !== '400.50') ? `${pct - 100n || '<1'}% over` : `${pct}%`;
    expect(row).toMatch(new RegExp(`${shown} \\[[█░]{20}\\]`));

    // archive: gone from the list, back with --include-archived
    expect((await inproc(['budgets', 'archive', b.id, '-o', 'json'])).code).toBe(0);
    expect(
      JSON.parse((await inproc(['budgets', 'list', '-o', 'json'])).stdout).map((x: { id: string }) => x.id),
    ).not.toContain(b.id);
    const all = JSON.parse((await inproc(['budgets', 'list', '--include-archived', '-o', 'json'])).stdout);
    expect(all.find((x: { id: string }) => x.id === b.id).archived).toBe(true);
    // archiving twice is the service's 400: exit 2 with its message
    const again = await cli(['budgets', 'archive', b.id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already archived/);
    expect(again.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  test("csv: one budget is the list's row, its details one row per period with the amounts exact", async () => {
    const created = await cli([
      ...['budgets', 'create-recurring', '--name', 'Fika', '--amount', '250.25', '--currency', 'SEK'],
      ...['--category', 'expenses:food.coffee', '-o', 'csv'],
    ]);
    expect([created.code, created.stderr]).toEqual([0, '']);
    const [header, row] = created.stdout.split('\r\n');
    expect(header).toBe('id,name,target,currency,period,filter,archived');
    const id = row!.split(',')[0]!;
    expect(row).toBe(`${id},Fika,250.25,SEK,every month,expenses:food.coffee,false`);
    const details = await cli(['budgets', 'details', id, '-o', 'csv']);
    expect(details.code, details.stderr).toBe(0);
    const lines = details.stdout.trim().split('\r\n');
    expect(lines[0]).toBe('start,end,spent,spent_currency,target,target_currency');
    // the current month's period: what the store holds for coffee, exactly
    expect(lines.at(-1)).toBe(`${month()}-01,${lines.at(-1)!.split(',')[1]},${coffeeThisMonth()},SEK,250.25,SEK`);
    expect(lines.at(-1)!.split(',')[1]).toMatch(new RegExp(`^${month()}-(28|29|30|31)$`));
    expect(details.stdout).not.toContain('{');
  });

  test('bad amounts and unknown budgets: one-line errors with the contract exit codes', async () => {
    const bad = await cli([
      'budgets',
      'create-one-off',
      '--name',
      'x',
      '--amount',
      '12,50',
      '--currency',
      'SEK',
      '--start',
      '2026-01-01',
      '--end',
      '2026-01-31',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--amount must be a positive decimal/);
    const missing = await cli(['budgets', 'delete', '0123456789abcdef0123456789abcdef', '--yes']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/HTTP 404/);
    expect(missing.stderr).not.toMatch(/at .*\.js/);
  });

  test('update: a filter flag replaces its part of the filter only; an empty filter flag is exit 2', async () => {
    const made = await cli(
      ['budgets', 'create-recurring', '--name', 'Fika', '--amount', '300', '--currency', 'SEK'].concat([
        '--category',
        'expenses:food.coffee',
        '--tag',
        'work',
        '-o',
        'json',
      ]),
    );
    expect(made.code, made.stderr).toBe(0);
    const id = (JSON.parse(made.stdout) as { id: string }).id;
    const upd = await cli(['budgets', 'update', id, '--text', 'Espresso', '-o', 'json']);
    expect(upd.code, upd.stderr).toBe(0);
    expect((JSON.parse(upd.stdout) as { filter: unknown }).filter).toEqual({
      categories: [{ code: 'expenses:food.coffee' }],
      tags: [{ key: 'work' }],
      freeTextQuery: 'Espresso',
    });
    const cats = await cli(['budgets', 'update', id, '--category', 'expenses:food', '-o', 'json']);
    expect((JSON.parse(cats.stdout) as { filter: unknown }).filter).toEqual({
      categories: [{ code: 'expenses:food' }],
      tags: [{ key: 'work' }],
      freeTextQuery: 'Espresso',
    });
    // a script's variable that came out empty: not a budget over every expense, nor a filter wiped
    const before = (await cli(['budgets', 'list', '-o', 'json'])).stdout;
    for (const flag of ['--account', '--tag', '--category', '--text']) {
      const c = await cli([
        'budgets',
        'create-recurring',
        '--name',
        'E',
        '--amount',
        '1',
        '--currency',
        'SEK',
        flag,
        '',
      ]);
      expect(c.code, flag).toBe(2);
      expect(c.stderr).toContain(`${flag} is empty`);
      const u = await cli(['budgets', 'update', id, flag, ' ']);
      expect(u.code, flag).toBe(2);
    }
    expect((await cli(['budgets', 'list', '-o', 'json'])).stdout).toBe(before);
  });

  test('details and update: --start/--end given empty are exit 2, not "now" or "as it is"', async () => {
    const made = await cli(
      ['budgets', 'create-one-off', '--name', 'Trip', '--amount', '900', '--currency', 'SEK'].concat([
        '--start',
        '2026-06-01',
        '--end',
        '2026-08-31',
        '-o',
        'json',
      ]),
    );
    expect(made.code, made.stderr).toBe(0);
    const id = (JSON.parse(made.stdout) as { id: string }).id;
    for (const args of [
      ['details', id, '--start', ''],
      ['details', id, '--end', ''],
      ['update', id, '--end', ''],
      ['update', id, '--start', ''],
    ]) {
      const r = await cli(['budgets', ...args, '-o', 'json']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/--(start|end) must be a date YYYY-MM-DD or epoch milliseconds, got ""/);
    }
  });

  test('a category code the service refuses is named in the error, not hidden as a secret', async () => {
    // `code` alone is an OAuth grant's name; under a budget's filter.categories it is a category code
    const r = await cli(
      ['budgets', 'create-recurring', '--name', 'x', '--amount', '10', '--currency', 'SEK'].concat([
        '--category',
        'expenses:nosuchthing',
      ]),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/HTTP 400: filter\.categories: "expenses:nosuchthing" is not an expense category code/);
    expect(r.stderr).not.toContain('***');
  });
});

describe('statistics', () => {
  test('a resolution the type does not allow is refused before sending (exit 2, names the allowed ones)', async () => {
    const r = await runCli(['statistics', 'query', '--type', 'income-by-category', '--resolution', 'DAILY', '-v'], {
      env,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--resolution DAILY is not available for income-by-category/);
    expect(r.stderr).toMatch(/MONTHLY, MONTHLY_ADJUSTED/);
    // nothing went over the wire (the trace would show the request)
    expect(r.stderr).not.toMatch(/statistics\/query/);
  });

  test('a period no statistic of the resolution can have is refused before sending; one that holds them is not', async () => {
    const q = ['statistics', 'query', '--type', 'expenses-by-category', '-o', 'csv', '-v'];
    // a week, or a day, never matches a month: this was an empty answer with exit 0
    for (const [resolution, period, kind] of [
      ['MONTHLY', '2026:10', 'week'],
      ['MONTHLY', `${month()}-15`, 'day'],
      ['YEARLY', month(), 'month'],
      ['WEEKLY', month(), 'month'],
    ] as const) {
      const r = await cli([...q, '--resolution', resolution, '--period', period]);
      expect(r.code, `${resolution} ${period}`).toBe(2);
      expect(r.stderr).toContain(`--period ${period} is a ${kind}: with --resolution ${resolution}`);
      expect(r.stderr).not.toMatch(/statistics\/query/);
    }
    // a year holds the days; a month holds its days
    for (const period of [month().slice(0, 4), month()]) {
      const r = await cli([...q, '--resolution', 'DAILY', '--period', period]);
      expect(r.code, r.stderr).toBe(0);
    }
  });

  test('a type or description given twice is counted once', async () => {
    const q = ['statistics', 'query', '--resolution', 'YEARLY', '-o', 'json'];
    const once = JSON.parse((await cli([...q, '--type', 'income-and-expenses'])).stdout) as unknown[];
    expect(once.length).toBeGreaterThan(0);
    const twice = await cli([...q, '--type', 'income-and-expenses,income-and-expenses']);
    expect(twice.code, twice.stderr).toBe(0);
    expect(JSON.parse(twice.stdout)).toEqual(once);
    const desc = await cli([
      ...q,
      '--type',
      'income-and-expenses',
      '--description',
      'INCOME',
      '--description',
      'INCOME',
    ]);
    expect(desc.code, desc.stderr).toBe(0);
    expect(JSON.parse(desc.stdout)).toEqual(
      once.filter((s) => (s as { description: string }).description === 'INCOME'),
    );
  });

  test('a bar chart per type, values exact from the data', async () => {
    const r = await cli([
      'statistics',
      'query',
      '--type',
      'income-and-expenses',
      '--resolution',
      'MONTHLY',
      '--period',
      month(),
      '-o',
      'table',
    ]);
    expect(r.code).toBe(0);
    const json = JSON.parse(
      (
        await inproc([
          'statistics',
          'query',
          '--type',
          'income-and-expenses',
          '--resolution',
          'MONTHLY',
          '--period',
          month(),
          '-o',
          'json',
        ])
      ).stdout,
    );
    const expenses = json.find((s: { description: string }) => s.description === 'EXPENSES');
    expect(expenses.period).toBe(month());
    const exact = `${expenses.amount.value.unscaledValue.slice(0, -2)}.${expenses.amount.value.unscaledValue.slice(-2)}`;
    expect(r.stdout).toContain(exact);
    expect(r.stdout).toMatch(/█/);
  });
});

describe('calendar, search, insights', () => {
  test('calendar period shows the salary period holding a day', async () => {
    const r = await cli(['calendar', 'period', '2024-05-24', '-o', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\r\n')[1]).toBe('2024-06,MONTHLY_ADJUSTED,2024-05-24,2024-06-24,32');
    const bad = await cli(['calendar', 'periods', '--from', '2010-01-01', '--to', '2024-01-01']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/10 years/);
  });

  test('search with an empty query (a variable that came out empty) is exit 2, nothing sent', async () => {
    for (const words of [[''], ['  '], ['', '']]) {
      const r = await cli(['search', ...words, '-o', 'json', '-v']);
      expect(r.code, JSON.stringify(words)).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('the search query is empty');
      expect(r.stderr).not.toMatch(/\/api\/v1\/search/);
    }
  });

  test('-o json --fields with an item path: the error says the items are under results, and how to get theirs', async () => {
    const r = await cli(['search', 'fika', '-o', 'json', '--fields', 'id,amount']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('-o json is the whole response, its transactions under "results"');
    expect(r.stderr).toContain('use -o ndjson or -o csv');
    const nd = await cli(['search', 'fika', '-o', 'ndjson', '--fields', 'id,amount']);
    expect(nd.code, nd.stderr).toBe(0);
  });

  test('search with Swedish keywords (the user is sv_SE)', async () => {
    const r = await cli(['search', 'fika', 'över', '50', '-o', 'json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.count).toBeGreaterThan(0);
    for (const { transaction: tx } of j.results) {
      expect(tx.categoryId).toBe(categoryByCode('expenses:food.coffee')!.id);
      expect(BigInt(String(tx.currencyDenominatedAmount.unscaledValue).replace('-', ''))).toBeGreaterThanOrEqual(5000n);
    }
  });

  test('insights: list, act on one, it moves to archived; acting again is 404', async () => {
    const list = JSON.parse((await cli(['insights', 'list', '-o', 'json'])).stdout);
    const large = list.find((i: { type: string }) => i.type === 'LARGE_EXPENSE');
    expect(large).toBeDefined();
    const act = await cli(['insights', 'action', large.id, '--action', 'ACKNOWLEDGE']);
    expect(act.code).toBe(0);
    expect(
      JSON.parse((await inproc(['insights', 'list', '-o', 'json'])).stdout).map((i: { id: string }) => i.id),
    ).not.toContain(large.id);
    expect(
      JSON.parse((await inproc(['insights', 'archived', '-o', 'json'])).stdout).map((i: { id: string }) => i.id),
    ).toContain(large.id);
    const again = await cli(['insights', 'archive', large.id]);
    expect(again.code).toBe(4);
  });
});

describe('transfers and reports', () => {
  test('transfers create: URIs checked before sending; --wait follows it to EXECUTED', async () => {
    const bad = await cli([
      'transfers',
      'create',
      '--source',
      'se-bg://5050-1055',
      '--destination',
      'se://33001984',
      '--amount',
      '10',
      '--currency',
      'SEK',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--source: the source may not be a se-bg:\/\/ URI/);
    const acc = [...t.sandbox.store.accounts.values()].find((a) => a.userId === userId && a.type === 'CHECKING')!;
    const transfer = (amount: string) =>
      cli([
        'transfers',
        'create',
        '--source',
        `platform://${acc.id}`,
        '--destination',
        'se://33001984',
        '--amount',
        amount,
        '--currency',
        'SEK',
        '--wait',
        '-o',
        'json',
      ]);
    // more than the account holds: the bank refuses it when it executes
    acc.balance = '1234567890.11';
    const short = await transfer('1234567890.12');
    expect(short.code, short.stderr).toBe(9);
    expect(short.stderr).toContain('Insufficient funds: 1234567890.12 SEK is more than the balance');
    expect(acc.balance).toBe('1234567890.11');
    acc.balance = '1234567890.12';
    const ok = await transfer('1234567890.12');
    expect(ok.code).toBe(0);
    const op = JSON.parse(ok.stdout);
    expect(op.status).toBe('EXECUTED');
    expect(op.statusMessage).toContain('1234567890.12 SEK');
    expect(acc.balance).toBe('0.00');
  });

  test('reports create, then pdf byte for byte to a file and to stdout', async () => {
    const created = await cli(['reports', 'create', '-o', 'json']);
    expect(created.code).toBe(0);
    const id = JSON.parse(created.stdout).id;
    const file = join(tempDir(), 'r.pdf');
    const w = await cli(['reports', 'pdf', id, '-O', file]);
    expect(w.code).toBe(0);
    const served = await fetch(
      `${t.sandbox.baseUrl}/api/v1/account-verification-reports/${id}/pdf?template=standard-1.0`,
      {
        headers: {
          authorization: `Bearer ${(await raw(t.sandbox.baseUrl, 'POST', '/api/v1/oauth/token', { form: { client_id: t.sandbox.clientId, client_secret: t.sandbox.clientSecret, grant_type: 'client_credentials', scope: 'account-verification-reports:read' } })).json().access_token}`,
        },
      },
    );
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect(bytes.includes(0xe2)).toBe(true); // the binary comment line survived
    const out = await new Promise<Buffer>((resolve, reject) => {
      void import('node:child_process').then(({ spawn }) => {
        const child = spawn(
          process.execPath,
          [join(process.cwd(), 'bin', 'bankctl.js'), 'reports', 'pdf', id, '-O', '-'],
          { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } },
        );
        const chunks: Buffer[] = [];
        child.stdout.on('data', (c) => chunks.push(c));
        child.on('error', reject);
        child.on('close', () => resolve(Buffer.concat(chunks)));
      });
    });
    expect(out.equals(bytes)).toBe(true);
  });
});
