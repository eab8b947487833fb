// csv columns do not depend on the data: a money column is two columns (the decimal, the currency)
// whether or not the first row has an amount, so a script reading `balance` always reads a number,
// and an empty answer has the same header as a full one.
import { beforeAll, describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/commands.js';
import { userWithToken } from '../helpers/sandbox.js';
import { jsonAnswerServer } from '../helpers/scripted-server.js';

const sb = useSandbox({ months: 1, sandbox: { seed: 11 } });

async function cli(args: string[], env: Record<string, string> = sb.env): Promise<string> {
  const r = await spawnCli(args, { env });
  expect(r.code, `bankctl ${args.join(' ')}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

const rows = (csv: string) =>
  csv
    .trim()
    .split('\r\n')
    .map((l) => l.split(','));

describe('csv money columns', () => {
  test('an account without a balance first: the balance column stays a decimal with its currency beside it', async () => {
    const before = rows(await cli(['accounts', 'list', '-o', 'csv']));
    const header = before[0]!;
    expect(header).toContain('balance');
    expect(header[header.indexOf('balance') + 1]).toBe('currency');
    // the service sends no balance for an account excluded from aggregation: make it the first row
    const first = before[1]![header.indexOf('id')]!;
    await cli(['accounts', 'update', first, '--exclusion', 'AGGREGATION']);
    const after = rows(await cli(['accounts', 'list', '-o', 'csv']));
    expect(after[0]).toEqual(header);
    const b = header.indexOf('balance');
    const excluded = after.find((r) => r[header.indexOf('id')] === first)!;
    expect([excluded[b], excluded[b + 1]]).toEqual(['', '']);
    const others = after.slice(1).filter((r) => r !== excluded);
    expect(others.length).toBeGreaterThan(0);
    for (const r of others) {
      expect(r).toHaveLength(header.length);
      expect(r[b]).toMatch(/^-?\d+\.\d{2}$/);
      expect(r[b + 1]).toBe('SEK');
    }
  });

  test('--fields naming a column by its header is that column: search amount, statistics value (decimal and currency)', async () => {
    // search's `amount` column reads currencyDenominatedAmount and statistics' `value` the exact
    // amount; --fields amount gave the bare number (-970 for -970.00) and no currency column
    const whole = rows(await cli(['search', 'a', '--limit', '20', '-o', 'csv']));
    const a = whole[0]!.indexOf('amount');
    const picked = rows(await cli(['search', 'a', '--limit', '20', '-o', 'csv', '--fields', 'id,amount']));
    expect(picked[0]).toEqual(['id', 'amount', 'currency']);
    expect(picked.slice(1).map((r) => [r[1], r[2]])).toEqual(whole.slice(1).map((r) => [r[a], r[a + 1]]));
    const stats = [
      'statistics',
      'query',
      '--type',
      'balances-by-account',
      '--resolution',
      'MONTHLY',
      '--pad',
      '-o',
      'csv',
    ];
    const all = rows(await cli(stats));
    const v = all[0]!.indexOf('value');
    const values = rows(await cli([...stats, '--fields', 'period,value']));
    expect(values[0]).toEqual(['period', 'value', 'currency']);
    expect(values.length).toBeGreaterThan(1);
    expect(values.slice(1).map((r) => [r[1], r[2]])).toEqual(all.slice(1).map((r) => [r[v], r[v + 1]]));
  });

  test('no rows: the same header as with rows', async () => {
    const full = rows(await cli(['transactions', 'list', '--limit', '2', '-o', 'csv']))[0];
    const none = rows(
      await cli(['transactions', 'list', '--from', '2001-01-01', '--to', '2001-01-02', '-o', 'csv']),
    )[0];
    expect(full).toContain('currency');
    expect(none).toEqual(full);
  });
});

describe('csv money columns of the v2 and loan reads', () => {
  // a second user with nothing at all: the empty answers
  let emptyUser = '';
  beforeAll(async () => {
    emptyUser = (await userWithToken(sb.t.sandbox, ['user:read'])).userId;
  });
  const header = async (args: string[], user?: string) => {
    const all = rows(await cli([...args, '-o', 'csv'], user ? { ...sb.env, BANKCTL_USER: user } : sb.env));
    return { header: all[0]!, rows: all.slice(1) };
  };

  test.each([
    [
      ['accounts', 'list', '--v2'],
      ['booked', 'booked_currency', 'available', 'available_currency'],
    ],
    [
      ['loans', 'list'],
      ['balance', 'currency'],
    ],
    [
      ['loans', 'accounts'],
      ['principal', 'principal_currency', 'initial', 'initial_currency', 'paid', 'paid_currency'],
    ],
    [
      ['investments', 'accounts'],
      ['booked', 'booked_currency', 'cash', 'cash_currency', 'holdings', 'holdings_currency'],
    ],
  ])('bankctl %j -o csv: the amount columns and their currencies, with rows and without', async (args, money) => {
    const full = await header(args);
    const none = await header(args, emptyUser);
    expect(none.rows).toEqual([]);
    expect(full.rows.length).toBeGreaterThan(0);
    for (const h of money) expect(full.header).toContain(h);
    expect(none.header).toEqual(full.header);
    // where the user has rows, each amount is a plain decimal with its currency in the next column
    const first = full.header.indexOf(money[0]!);
    for (const r of full.rows) {
      expect(r).toHaveLength(full.header.length);
      if (r[first] !== '') expect([r[first], r[first + 1]]).toEqual([expect.stringMatching(/^-?\d+(\.\d+)?$/), 'SEK']);
    }
  });
});

describe('csv: text that reads like money is text', () => {
  test('a description "7 Eleven" under --fields stays one cell; an amount path is still two', async () => {
    const server = await jsonAnswerServer();
    const tx = (id: string, display: string, unscaled: string) => ({
      id,
      accountId: 'a1',
      amount: { currencyCode: 'SEK', value: { scale: '2', unscaledValue: unscaled } },
      dates: { booked: '2026-11-20' },
      descriptions: { display },
      status: 'BOOKED',
    });
    server.body = JSON.stringify({
      transactions: [tx('t1', '7 Eleven', '-4550'), tx('t2', '3 cached', '-1000'), tx('t3', 'Pressbyrån', '-990')],
      nextPageToken: '',
    });
    try {
      const env = {
        BANKCTL_BASE_URL: server.url,
        BANKCTL_TOKEN: 'token-1',
        BANKCTL_CONFIG_DIR: sb.env.BANKCTL_CONFIG_DIR!,
      };
      const csv = await cli(['transactions', 'list', '-o', 'csv', '--fields', 'id,descriptions.display,amount'], env);
      expect(rows(csv)).toEqual([
        ['id', 'descriptions.display', 'amount', 'currency'],
        ['t1', '7 Eleven', '-45.50', 'SEK'],
        ['t2', '3 cached', '-10.00', 'SEK'],
        ['t3', 'Pressbyrån', '-9.90', 'SEK'],
      ]);
      // the amount's value alone carries no currency: one column, whatever it reads like
      const raw = await cli(
        ['transactions', 'list', '-o', 'csv', '--fields', 'descriptions.display,amount.value'],
        env,
      );
      expect(rows(raw)[0]).toEqual(['descriptions.display', 'amount.value']);
    } finally {
      await server.close();
    }
  });
});
