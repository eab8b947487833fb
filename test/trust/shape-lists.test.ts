// A 200 of the wrong shape is not "no data": every list command, given a body that is not its
// endpoint's ({}, [], "hello", 42, null, the list key null / a string / holding null, 1 or "x"),
// exits 7 naming the endpoint and what was wrong, and prints nothing; a single-object read exits 7
// for a body that is not a JSON object. The real CLI against a tiny server on 127.0.0.1 port 0 that
// answers every request with the case's body (src/api/shape.ts does the checking).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { spawnCli, tempDir, type CliResult } from '../helpers/cli.js';

/** Runs bankctl against a server that answers every request 200 application/json with `body`. */
async function against(body: string, args: string[]): Promise<CliResult & { paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    paths.push(`${req.method} ${req.url!.split('?')[0]}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await spawnCli(args, {
      env: {
        BANKCTL_CONFIG_DIR: tempDir(),
        BANKCTL_BASE_URL: url,
        BANKCTL_TOKEN: 'tok-0123456789',
        BANKCTL_CONNECTOR_TOKEN: 'ctok-0123456789',
        BANKCTL_RETRIES: '0',
      },
    });
    return { ...r, paths };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

interface ListCommand {
  args: string[];
  /** The path the command reads (named in the message). */
  path: string;
  /** The key its list is under; undefined: the body is the list itself. */
  key?: string;
  /** The body may also be the list itself. */
  bare?: boolean;
}

const LISTS: ListCommand[] = [
  { args: ['accounts', 'list'], path: '/api/v1/accounts/list', key: 'accounts' },
  { args: ['accounts', 'list', '--v2'], path: '/data/v2/accounts', key: 'accounts' },
  { args: ['credentials', 'list'], path: '/api/v1/credentials/list', key: 'credentials' },
  { args: ['consents', 'list'], path: '/api/v1/provider-consents', key: 'providerConsents' },
  { args: ['identities', 'list'], path: '/api/v1/identities', key: 'identities' },
  { args: ['investments', 'list'], path: '/api/v1/investments', key: 'portfolios' },
  { args: ['loans', 'list'], path: '/api/v1/loans', key: 'loans' },
  { args: ['categories', 'list'], path: '/api/v1/categories', key: 'categories', bare: true },
  { args: ['budgets', 'list'], path: '/api/v1/budgets', key: 'budgetSpecifications' },
  { args: ['budgets', 'summaries'], path: '/api/v1/budgets/summaries', key: 'budgetSummaries' },
  { args: ['budgets', 'recommended'], path: '/api/v1/budgets/recommended', key: 'recommendedBudgets', bare: true },
  { args: ['providers', 'list', '--market', 'SE'], path: '/api/v1/providers', key: 'providers', bare: true },
  { args: ['webhooks', 'list'], path: '/api/v1/hooks', key: 'webHooks', bare: true },
  { args: ['webhooks', 'endpoints', 'list'], path: '/events/v2/webhook-endpoints', key: 'webhookEndpoints' },
  { args: ['connector', 'webhooks', 'list'], path: '/connector/webhooks', key: 'webhooks', bare: true },
  { args: ['insights', 'list'], path: '/api/v1/insights' },
  { args: ['insights', 'archived'], path: '/api/v1/insights/archived' },
  { args: ['calendar', 'periods', '--from', '2026-01-01', '--to', '2026-03-31'], path: '/api/v1/calendar/periods' },
];

interface Shape {
  name: string;
  body: (key: string | undefined) => string;
  /** What the message says, for a keyed list and for a bare one; undefined: the body is a good empty list. */
  keyed: ((key: string) => RegExp) | undefined;
  bare: RegExp | undefined;
  /** For a keyed list that may also be bare: the body is a good empty list. */
  fineWhenBare?: boolean;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const SHAPES: Shape[] = [
  {
    name: '{}',
    body: () => '{}',
    keyed: (k) => new RegExp(`no ${k} list \\(${k} is missing\\)`),
    bare: /a body that is not a list \(it is an object\)/,
  },
  {
    name: '[]',
    body: () => '[]',
    keyed: () => /a body that is not a JSON object with \w+ \(it is a list\)/,
    bare: undefined,
    fineWhenBare: true,
  },
  {
    name: '"hello"',
    body: () => '"hello"',
    keyed: (k) => new RegExp(`a body that is (not|neither a list nor) a JSON object with ${k} \\(it is a string\\)`),
    bare: /a body that is not a list \(it is a string\)/,
  },
  {
    name: '42',
    body: () => '42',
    keyed: () => /\(it is a number\)/,
    bare: /a body that is not a list \(it is a number\)/,
  },
  {
    name: 'null',
    body: () => 'null',
    keyed: () => /\(it is null\)/,
    bare: /a body that is not a list \(it is null\)/,
  },
  {
    name: 'the key null',
    body: (k) => JSON.stringify({ [k ?? 'items']: null, nextPageToken: '' }),
    keyed: (k) => new RegExp(`no ${k} list \\(${k} is null\\)`),
    bare: /a body that is not a list \(it is an object\)/,
  },
  {
    name: 'the key a string',
    body: (k) => JSON.stringify({ [k ?? 'items']: 'oops', nextPageToken: '' }),
    keyed: (k) => new RegExp(`no ${k} list \\(${k} is a string, not a list\\)`),
    bare: /a body that is not a list \(it is an object\)/,
  },
  {
    name: 'items null, 1, "x"',
    body: (k) => JSON.stringify(k ? { [k]: [null, 1, 'x'], nextPageToken: '' } : [null, 1, 'x']),
    keyed: (k) => new RegExp(`an item of ${k} that is not an object \\(${esc(k)}\\[0\\] is null\\)`),
    bare: /an item of the list that is not an object \(the list\[0\] is null\)/,
  },
  {
    name: 'an object, then 5',
    body: (k) => JSON.stringify(k ? { [k]: [{ id: 'a1' }, 5], nextPageToken: '' } : [{ id: 'a1' }, 5]),
    keyed: (k) => new RegExp(`an item of ${k} that is not an object \\(${esc(k)}\\[1\\] is a number\\)`),
    bare: /an item of the list that is not an object \(the list\[1\] is a number\)/,
  },
];

const CASES = LISTS.flatMap((c) => SHAPES.map((s) => [`${c.args.join(' ')} with ${s.name}`, c, s] as const));

describe('a list command given a body that is not its endpoint`s: exit 7 naming the endpoint and what is wrong', () => {
  test.concurrent.each(CASES)('%s', async (_name, c, s) => {
    const r = await against(s.body(c.key), [...c.args, '-o', 'json']);
    const expected = c.key ? s.keyed?.(c.key) : s.bare;
    if (expected === undefined || (c.bare && s.fineWhenBare)) {
      // a list itself, empty: where the endpoint may answer a bare list, that is no accounts at all
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([]);
      return;
    }
    expect(r.code, `${c.args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`GET ${esc(c.path)} answered 200 \\(application/json\\) with `));
    expect(r.stderr).toMatch(expected);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the tables and csv of a wrong shape are the same error, not an empty table', () => {
  test.concurrent.each([
    ['table', 'accounts', ['accounts', 'list']],
    ['csv', 'accounts', ['accounts', 'list']],
    ['table', 'credentials', ['credentials', 'list']],
    ['csv', 'providerConsents', ['consents', 'list']],
  ] as const)('-o %s of {} for %s', async (format, key, args) => {
    const r = await against('{}', [...args, '-o', format]);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`no ${key} list (${key} is missing)`);
  });
});

describe('lists that are there and empty are still empty lists, exit 0', () => {
  test.concurrent.each(LISTS.map((c) => [c.args.join(' '), c] as const))('%s', async (_name, c) => {
    const body = c.key ? JSON.stringify({ [c.key]: [], nextPageToken: '' }) : '[]';
    const r = await against(body, [...c.args, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    // loans list -o json prints the whole LoanResponse
    expect(c.key === 'loans' ? out.loans : out).toEqual([]);
  });

  test('identities: the older {availableIdentityData} is read too; with neither key it is exit 7', async () => {
    const older = await against('{"availableIdentityData":[{"name":"Ada"}]}', ['identities', 'list', '-o', 'json']);
    expect(older.code, older.stderr).toBe(0);
    expect(JSON.parse(older.stdout)).toEqual([{ name: 'Ada' }]);
    const neither = await against('{"identity":[]}', ['identities', 'list', '-o', 'json']);
    expect(neither.code).toBe(7);
    expect(neither.stderr).toContain('no identities list (identities is missing)');
    const oneNull = await against('{"identities":[],"availableIdentityData":null}', ['identities', 'list']);
    expect(oneNull.code).toBe(7);
    expect(oneNull.stderr).toContain('no availableIdentityData list (availableIdentityData is null)');
  });
});

describe('single-object reads: a body that is not a JSON object is exit 7; no field is made up as required', () => {
  const READS: Array<{ args: string[]; path: string }> = [
    { args: ['users', 'get'], path: '/api/v1/user' },
    { args: ['accounts', 'balances', 'a1'], path: '/api/v1/accounts/a1/balances' },
    { args: ['credentials', 'get', 'c1'], path: '/api/v1/credentials/c1' },
    { args: ['reports', 'get', 'r1'], path: '/api/v1/account-verification-reports/r1' },
  ];
  const BODIES: Array<[string, string]> = [
    ['[]', 'a list'],
    ['"hello"', 'a string'],
    ['42', 'a number'],
    ['null', 'null'],
  ];
  test.concurrent.each(
    READS.flatMap((c) => BODIES.map(([b, kind]) => [`${c.args.join(' ')} with ${b}`, c, b, kind] as const)),
  )('%s', async (_name, c, body, kind) => {
    const r = await against(body, [...c.args, '-o', 'json']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `GET ${c.path} answered 200 (application/json) with a body that is not a JSON object (it is ${kind})`,
    );
  });

  test.concurrent.each(READS.map((c) => [c.args.join(' '), c] as const))(
    '%s with {} is the object as sent',
    async (_name, c) => {
      const r = await against('{}', [...c.args, '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({});
    },
  );

  test('accounts balances: balances, when sent, must be an object', async () => {
    const r = await against('{"accountId":"a1","balances":"oops"}', ['accounts', 'balances', 'a1', '-o', 'csv']);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('with balances that are not an object (balances is a string)');
  });

  test('search: results (required by the Swagger, read by the table) must be a list of objects', async () => {
    for (const [body, says] of [
      ['{}', 'no results list (results is missing)'],
      ['{"results":"x"}', 'no results list (results is a string, not a list)'],
      ['{"results":[7]}', 'an item of results that is not an object (results[0] is a number)'],
      ['[]', 'a body that is not a JSON object (it is a list)'],
    ]) {
      const r = await against(body!, ['search', 'coffee', '-o', 'json']);
      expect(r.code, body).toBe(7);
      expect(r.stderr).toContain(`POST /api/v1/search answered 200 (application/json) with ${says}`);
    }
  });

  test('the message shows the first bytes of the body, escaped and cut short', async () => {
    const r = await against(`{"note":"\\u001b[31m${'x'.repeat(200)}"}`, ['accounts', 'list']);
    expect(r.code).toBe(7);
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).toContain('…');
    expect(r.stderr.length).toBeLessThan(600);
  });
});

describe('the remaining readers: transaction items, markets, v2 amounts', () => {
  test('transactions list: null, 5 or "x" as a transaction is exit 7 in every format, nothing printed', async () => {
    for (const o of ['ndjson', 'json', 'csv', 'table']) {
      const r = await against('{"transactions":[{"id":"a"},null,5,"x"],"nextPageToken":""}', [
        'transactions',
        'list',
        '-o',
        o,
      ]);
      expect(r.code, `${o}: ${r.stderr}`).toBe(7);
      expect(r.stderr).toMatch(/an item of transactions that is not an object \(transactions\[1\] is null\)/);
      expect(r.stdout).toBe('');
    }
  });

  test('providers markets: a body without its markets list is exit 7, not an empty list', async () => {
    for (const body of ['{}', '{"markets":null}', '{"markets":[1]}']) {
      const r = await against(body, ['providers', 'markets', '-o', 'json']);
      expect(r.code, `${body}: ${r.stderr}`).toBe(7);
      expect(r.stdout).toBe('');
    }
    const ok = await against('{"markets":["SE","GB"]}', ['providers', 'markets', '-o', 'json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual([{ market: 'SE' }, { market: 'GB' }]);
  });

  test('--fields amount: an amount that cannot be read exactly is exit 7 (the service), not exit 1 (a bug)', async () => {
    const page =
      '{"transactions":[{"id":"a","amount":{"currencyCode":"SEK","value":{"unscaledValue":"abc","scale":"2"}}}],"nextPageToken":""}';
    for (const o of ['csv', 'table']) {
      const r = await against(page, ['transactions', 'list', '--fields', 'id,amount', '-o', o]);
      expect(r.code, `${o}: ${r.stderr}`).toBe(7);
      expect(r.stderr).toMatch(/cannot be read exactly/);
    }
  });

  test('--fields "" (an empty $COLS) is exit 2, not the path list on stdout', async () => {
    const r = await against('{"transactions":[{"id":"a"}],"nextPageToken":""}', [
      'transactions',
      'list',
      '--fields',
      '',
      '-o',
      'csv',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--fields is empty/);
    expect(r.stdout).toBe('');
    const help = await against('{"transactions":[{"id":"a"}],"nextPageToken":""}', [
      'transactions',
      'list',
      '--fields',
      'help',
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('id');
  });

  test('insights archived: the archive date in a table is ISO, not epoch milliseconds', async () => {
    const r = await against('[{"id":"i1","type":"X","title":"t","dateArchived":1795933689149}]', [
      'insights',
      'archived',
      '-o',
      'table',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('2026-11-29T');
    expect(r.stdout).not.toContain('1795933689149');
  });

  test('accounts list --v2: an amount that cannot be read exactly is exit 7 naming it, not a blank cell', async () => {
    const account = (scale: string) =>
      `{"accounts":[{"id":"a1","name":"A","type":"CHECKING","balances":{"booked":{"amount":{"currencyCode":"SEK","value":{"unscaledValue":"100","scale":${scale}}}}}}],"nextPageToken":""}`;
    const bad = await against(account('2.5'), ['accounts', 'list', '--v2', '-o', 'csv']);
    expect(bad.code, bad.stderr).toBe(7);
    expect(bad.stderr).toMatch(/cannot be read exactly: .*scale is 2\.5/);
    const good = await against(account('"2"'), ['accounts', 'list', '--v2', '-o', 'csv']);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toContain('1.00');
  });

  test('data v2 reads: an amount whose value lacks its scale is exit 7, as in transactions list, not a blank cell', async () => {
    // the v2 accounts, investment, loan and balance reads showed such an amount as an empty cell
    // (and its currency column empty too) with exit 0, while transactions list said exit 7
    const half = '{"currencyCode":"SEK","value":{"unscaledValue":"100"}}';
    const cases: Array<[string, string[]]> = [
      [
        `{"accounts":[{"id":"a1","name":"A","type":"CHECKING","balances":{"booked":{"amount":${half}}}}],"nextPageToken":""}`,
        ['accounts', 'list', '--v2', '-o', 'csv'],
      ],
      [
        `{"accountId":"a1","balances":{"bookedBalance":{"amount":${half}}}}`,
        ['accounts', 'balances', 'a1', '--v2', '-o', 'csv'],
      ],
      [
        `{"loanAccounts":[{"id":"l1","loanType":"MORTGAGE","balances":{"principal":${half}}}]}`,
        ['loans', 'accounts', '-o', 'csv'],
      ],
      [
        `{"transactions":[{"id":"t1","accountId":"a1","amount":${half}}],"nextPageToken":""}`,
        ['transactions', 'list', '-o', 'csv'],
      ],
    ];
    for (const [body, args] of cases) {
      const r = await against(body, args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(7);
      expect(r.stderr).toMatch(/cannot be read exactly: .*scale is missing/);
      expect(r.stdout).not.toContain('SEK');
    }
    // one written the same way everywhere: with the currency's minor units
    const whole = await against(
      '{"accounts":[{"id":"a1","name":"A","type":"CHECKING","balances":{"booked":{"amount":{"currencyCode":"EUR","value":{"scale":"-3","unscaledValue":"19"}}}}}],"nextPageToken":""}',
      ['accounts', 'list', '--v2', '-o', 'csv'],
    );
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout.split('\r\n')[1]).toBe('a1,A,CHECKING,,19000.00,EUR,,,');
  });
});

describe('writes: the answer of a create or update is checked too', () => {
  const WRITES: Array<{ args: string[]; path: string; key?: string }> = [
    { args: ['users', 'create', '--market', 'SE'], path: 'POST /api/v1/user/create' },
    {
      args: ['budgets', 'create-one-off', '--name', 'Trip', '--amount', '100', '--currency', 'SEK'].concat([
        '--start',
        '2026-06-01',
        '--end',
        '2026-06-30',
      ]),
      path: 'POST /api/v1/budgets/one-off',
      key: 'budgetSpecification',
    },
    {
      args: ['credentials', 'create', '--provider', 'se-test-password', '--field', 'username=u'],
      path: 'POST /api/v1/credentials',
    },
    {
      args: ['webhooks', 'endpoints', 'create', '--url', 'https://example.com/hook', '--event', 'account:created'],
      path: 'POST /events/v2/webhook-endpoints',
    },
  ];
  test.concurrent.each(WRITES.map((c) => [c.args.slice(0, 3).join(' '), c] as const))(
    '%s: a list or a string is exit 7, not a blank answer with exit 0',
    async (_name, c) => {
      for (const [body, kind] of [
        ['[]', 'a list'],
        ['"created"', 'a string'],
      ]) {
        const r = await against(body!, [...c.args, '-o', 'json', '--yes']);
        expect(r.code, `${body}: ${r.stderr}`).toBe(7);
        expect(r.stderr).toContain(
          `${c.path} answered 200 (application/json) with a body that is not a JSON object (it is ${kind})`,
        );
      }
      if (c.key) {
        const r = await against('{}', [...c.args, '-o', 'json']);
        expect(r.code, r.stderr).toBe(7);
        expect(r.stderr).toContain(`no ${c.key} object (${c.key} is missing)`);
        expect(r.stdout).toBe('');
      }
    },
  );
});
