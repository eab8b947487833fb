// An amount that is there but cannot be read exactly is not a blank cell: `transactions list`,
// `accounts list` and `accounts balances` in table and csv exit 7 naming the field and the value (cut
// short), and a scale beyond 100 is no amount (no cell of a million characters). An amount that is
// absent or null stays an empty cell (the service sends a null balance for an excluded account), and
// good amounts keep every digit. The real CLI against a tiny server on 127.0.0.1 port 0.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { spawnCli, tempDir, type CliResult } from '../helpers/cli.js';

/** Runs bankctl against a server that answers every request 200 application/json with `body`. */
async function against(body: string, args: string[]): Promise<CliResult> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await spawnCli(args, {
      env: {
        BANKCTL_CONFIG_DIR: tempDir(),
        BANKCTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        BANKCTL_TOKEN: 'tok-0123456789',
        BANKCTL_RETRIES: '0',
      },
    });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

/** A page of one good transaction and one whose amount is `amount` (raw JSON text). */
const page = (amount: string | undefined) =>
  `{"transactions":[` +
  `{"id":"t1","accountId":"a1","amount":{"currencyCode":"SEK","value":{"scale":"2","unscaledValue":"-1250"}},"status":"BOOKED"},` +
  `{"id":"t2","accountId":"a1",${amount === undefined ? '' : `"amount":${amount},`}"status":"BOOKED"}` +
  `],"nextPageToken":""}`;

const value = (unscaledValue: string, scale: string) =>
  `{"currencyCode":"SEK","value":{"unscaledValue":${unscaledValue},"scale":${scale}}}`;

const UNREADABLE: Array<[string, string, string]> = [
  ['unscaledValue "abc"', value('"abc"', '"2"'), 'amount.value.unscaledValue is "abc" (not an integer)'],
  ['scale 2.5', value('100', '2.5'), 'amount.value.scale is 2.5 (not an integer)'],
  [
    'scale "99999999999"',
    value('"1"', '"99999999999"'),
    'amount.value.scale is "99999999999" (not a scale from -100 to 100)',
  ],
  ['scale "1000000"', value('"1"', '"1000000"'), 'amount.value.scale is "1000000" (not a scale from -100 to 100)'],
  ['scale -1000000', value('"1"', '-1000000'), 'amount.value.scale is -1000000 (not a scale from -100 to 100)'],
  [
    'unscaledValue 1.2345678901234568e+29 (a JSON number that is no integer literal)',
    value('1.2345678901234568e+29', '2'),
    'amount.value.unscaledValue is 1.2345678901234568e+29 (not an integer)',
  ],
  ['unscaledValue "1e3"', value('"1e3"', '"2"'), 'amount.value.unscaledValue is "1e3" (not an integer)'],
  ['unscaledValue 1.5e300', value('1.5e300', '2'), 'amount.value.unscaledValue is 1.5e300 (not an integer)'],
  ['unscaledValue 100.0', value('100.0', '2'), 'amount.value.unscaledValue is 100.0 (not an integer)'],
  ['unscaledValue null', value('null', '2'), 'amount.value.unscaledValue is null (not an integer)'],
  [
    'no scale',
    '{"currencyCode":"SEK","value":{"unscaledValue":"5"}}',
    'amount.value.scale is missing (not an integer)',
  ],
  ['scale true', value('"5"', 'true'), 'amount.value.scale is true (not an integer)'],
  ['value null', '{"currencyCode":"SEK","value":null}', 'amount.value is null (not {unscaledValue, scale})'],
  ['amount "x"', '"x"', 'amount is "x" (not an amount {currencyCode, value: {unscaledValue, scale}})'],
  ['amount 5', '5', 'amount is 5 (not an amount'],
  ['amount {}', '{}', 'amount.value is missing (not {unscaledValue, scale})'],
  [
    'currencyCode 5',
    '{"currencyCode":5,"value":{"unscaledValue":"5","scale":"2"}}',
    'amount.currencyCode is 5 (not a currency code)',
  ],
  [
    'an unscaledValue of 401 digits',
    value(`"${'9'.repeat(401)}"`, '"2"'),
    `amount.value.unscaledValue is "${'9'.repeat(39)}… (more than 400 digits)`,
  ],
];

describe('transactions list: an amount that cannot be read exactly is exit 7 naming the field and the value', () => {
  test.concurrent.each(
    UNREADABLE.flatMap(([name, amount, says]) =>
      ['table', 'csv'].map((f) => [`${name}, -o ${f}`, amount, says, f] as const),
    ),
  )('%s', async (_name, amount, says, format) => {
    const r = await against(page(amount), ['transactions', 'list', '-o', format]);
    expect(r.code, r.stdout + r.stderr).toBe(7);
    expect(r.stderr).toContain(`the service sent an amount that cannot be read exactly: ${says}`);
    // the value is cut short: never a cell (or a message) of a million characters
    expect(r.stderr.length).toBeLessThan(400);
    expect(r.stdout.length).toBeLessThan(400);
  });
});

describe('transactions list: absent or null is an empty cell, a good amount keeps every digit', () => {
  test.concurrent.each([
    ['amount null', 'null'],
    ['no amount', undefined],
  ] as const)('%s: exit 0, the amount and currency cells empty', async (_name, amount) => {
    const r = await against(page(amount), ['transactions', 'list', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.split('\r\n');
    expect(rows[0]).toBe('date,description,amount,currency,status,category,account,id');
    expect(rows[1]).toBe(',,-12.50,SEK,BOOKED,,a1,t1');
    expect(rows[2]).toBe(',,,,BOOKED,,a1,t2');
  });

  test.concurrent.each([
    ['30 digits as a JSON number', value('123456789012345678901234567890', '2'), '1234567890123456789012345678.90'],
    ['a negative scale', value('"15"', '-2'), '1500.00'],
    ['"+5" and scale "02"', value('"+5"', '"02"'), '0.05'],
    ['-0 at scale 2', value('"-0"', '2'), '0.00'],
    ['a scale of 100', value('"1"', '100'), `0.${'0'.repeat(99)}1`],
  ] as const)('%s', async (_name, amount, shown) => {
    const r = await against(page(amount), ['transactions', 'list', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\r\n')[2]).toBe(`,,${shown},SEK,BOOKED,,a1,t2`);
  });
});

/** An accounts list of a good account, an excluded one (balance null) and `account` (raw JSON members). */
const accounts = (account: string) =>
  `{"accounts":[` +
  `{"id":"a1","balance":129750.50,"currencyDenominatedBalance":{"unscaledValue":12975050,"scale":2,"currencyCode":"SEK"}},` +
  `{"id":"a2","balance":null,"currencyDenominatedBalance":null},` +
  `{"id":"a3",${account}}]}`;

describe('accounts list: a balance that cannot be read exactly is exit 7, a null one an empty cell', () => {
  test.concurrent.each([
    [
      'currencyDenominatedBalance.unscaledValue "abc"',
      '"currencyDenominatedBalance":{"unscaledValue":"abc","scale":2,"currencyCode":"SEK"}',
      'currencyDenominatedBalance.unscaledValue is "abc" (not an integer)',
    ],
    [
      'currencyDenominatedBalance.scale "99999999999"',
      '"currencyDenominatedBalance":{"unscaledValue":1,"scale":"99999999999","currencyCode":"SEK"}',
      'currencyDenominatedBalance.scale is "99999999999" (not a scale from -100 to 100)',
    ],
    [
      'currencyDenominatedBalance.unscaledValue 1e400',
      '"balance":1,"currencyDenominatedBalance":{"unscaledValue":1e400,"scale":2,"currencyCode":"SEK"}',
      'currencyDenominatedBalance.unscaledValue is 1e400 (not an integer)',
    ],
    ['currencyDenominatedBalance "x"', '"currencyDenominatedBalance":"x"', 'currencyDenominatedBalance is "x"'],
    ['balance "abc"', '"balance":"abc"', 'balance is "abc" (not a number)'],
    ['balance true', '"balance":true', 'balance is true (not a number)'],
    ['balance 1e1000000', '"balance":1e1000000', 'balance is 1e1000000 (an exponent beyond 1000)'],
  ] as const)('%s', async (_name, account, says) => {
    for (const format of ['table', 'csv']) {
      const r = await against(accounts(account), ['accounts', 'list', '-o', format]);
      expect(r.code, r.stdout + r.stderr).toBe(7);
      expect(r.stderr).toContain(`the service sent an amount that cannot be read exactly: ${says}`);
    }
  });

  test('null and absent balances are empty cells; the rest exact', async () => {
    const r = await against(accounts('"balance":12345678901234567890.123456789'), ['accounts', 'list', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.split('\r\n');
    expect(rows[0]).toBe('id,name,type,number,balance,currency,exclusion,favored');
    expect(rows[1]).toBe('a1,,,,129750.50,SEK,,');
    expect(rows[2]).toBe('a2,,,,,,,');
    expect(rows[3]).toBe('a3,,,,12345678901234567890.123456789,,,');
    const none = await against(accounts('"name":"no balance at all"'), ['accounts', 'list', '-o', 'table']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain('129750.50 SEK');
  });
});

describe('a flat amount object chosen with --fields is an amount, not JSON text', () => {
  // v1's currencyDenominated* and the finance areas' amounts: {unscaledValue, scale, currencyCode}
  const flat = '"currencyDenominatedBalance":{"unscaledValue":1234567890123456789012,"scale":2,"currencyCode":"SEK"}';
  const chosen = (format: string) => ['accounts', 'list', '--fields', 'id,currencyDenominatedBalance', '-o', format];

  test('csv: the exact decimal and its currency in two columns; table: with the currency', async () => {
    const csv = await against(accounts(flat), chosen('csv'));
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe(
      'id,currencyDenominatedBalance,currency\r\na1,129750.50,SEK\r\na2,,\r\na3,12345678901234567890.12,SEK\r\n',
    );
    const table = await against(accounts(flat), chosen('table'));
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/a3 +12345678901234567890\.12 SEK/);
  });

  test('one that cannot be read exactly is exit 7 naming it', async () => {
    const bad = '"currencyDenominatedBalance":{"unscaledValue":"12.5","scale":2,"currencyCode":"SEK"}';
    const r = await against(accounts(bad), chosen('csv'));
    expect(r.code, r.stdout + r.stderr).toBe(7);
    expect(r.stderr).toContain('currencyDenominatedBalance.unscaledValue is "12.5" (not an integer)');
  });
});

describe('accounts balances: a balance that cannot be read exactly is exit 7, a null one an empty cell', () => {
  const balances = (booked: string) => `{"accountId":"a1","balances":{"booked":${booked},"available":null}}`;

  test.concurrent.each([
    [
      'flat scale 2.5',
      '{"currencyCode":"SEK","scale":2.5,"unscaledValue":12345}',
      'balance.scale is 2.5 (not an integer)',
    ],
    ['flat unscaledValue "x"', '{"currencyCode":"SEK","scale":2,"unscaledValue":"x"}', 'balance.unscaledValue is "x"'],
    ['flat without scale', '{"currencyCode":"SEK","unscaledValue":5}', 'balance.scale is missing'],
    [
      'amount.value.scale "1000000"',
      '{"amount":{"currencyCode":"SEK","value":{"scale":"1000000","unscaledValue":"1"}}}',
      'balance.amount.value.scale is "1000000" (not a scale from -100 to 100)',
    ],
    ['a string', '"12.50"', 'balance is "12.50" (not a balance)'],
  ] as const)('%s', async (_name, booked, says) => {
    const r = await against(balances(booked), ['accounts', 'balances', 'a1', '-o', 'csv']);
    expect(r.code, r.stdout + r.stderr).toBe(7);
    expect(r.stderr).toContain(`the service sent an amount that cannot be read exactly: ${says}`);
  });

  test('the flat and the {amount} shapes read exactly; null is an empty row', async () => {
    for (const booked of [
      '{"currencyCode":"SEK","scale":2,"unscaledValue":1234567890123456789012}',
      '{"amount":{"currencyCode":"SEK","value":{"scale":"2","unscaledValue":"1234567890123456789012"}}}',
    ]) {
      const r = await against(balances(booked), ['accounts', 'balances', 'a1', '-o', 'csv']);
      expect(r.code, r.stderr).toBe(0);
      // no refreshed in this answer: an empty cell
      expect(r.stdout).toBe(
        'kind,amount,currency,refreshed\r\nbooked,12345678901234567890.12,SEK,\r\navailable,,,\r\n',
      );
    }
  });
});
