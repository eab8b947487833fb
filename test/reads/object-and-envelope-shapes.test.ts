// The shape of `-o json` as a user sees it, from the real binary against a sandbox on port 0:
// - `accounts update` prints the one account as an object (as the service answers and as
//   `accounts get` prints), not an array of one;
// - `loans list` and `search` print the whole response object in json (documented: the totals are
//   part of it), and their ndjson lines are exactly the loans / the matching transactions in it.
// Numbers keep the digits the service sent.
import { describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/commands.js';
import { addAccount } from '../helpers/store-fixtures.js';

const sb = useSandbox({ months: 3, sandbox: { seed: 7 } });

async function cli(args: string[]): Promise<string> {
  const r = await spawnCli(args, { env: sb.env });
  expect(r.code, `bankctl ${args.join(' ')}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

const lines = (out: string): string[] => out.split('\n').filter((l) => l !== '');

describe('accounts update prints the account, not a list of one', () => {
  test('-o json is an object like `accounts get`, balance with the digits sent', async () => {
    const acc = addAccount(sb.t.sandbox.store, sb.userId, { balance: '12345678901234567.10', type: 'SAVINGS' });
    const out = await cli(['accounts', 'update', acc.id, '--name', 'Bills', '-o', 'json']);
    expect(out.trimStart().startsWith('{')).toBe(true);
    const updated = JSON.parse(out);
    expect(Array.isArray(updated)).toBe(false);
    expect(updated).toMatchObject({ id: acc.id, name: 'Bills', type: 'SAVINGS' });
    expect(out).toContain('"balance": 12345678901234567.10,');

    const got = JSON.parse(await cli(['accounts', 'get', acc.id, '-o', 'json']));
    expect(Array.isArray(got)).toBe(false);
    expect(got).toMatchObject({ id: acc.id, name: 'Bills' });

    // --jq and --fields work on the object as on `accounts get`
    expect(await cli(['accounts', 'update', acc.id, '--name', 'Bills', '-o', 'json', '--jq', '.name'])).toBe('Bills\n');
    const picked = await cli(['accounts', 'update', acc.id, '--favored', '-o', 'json', '--fields', 'id,balance']);
    expect(picked).toBe(`{\n  "id": "${acc.id}",\n  "balance": 12345678901234567.10\n}\n`);
  });

  test('ndjson one line, csv and table one row, with the exact balance', async () => {
    const acc = addAccount(sb.t.sandbox.store, sb.userId, { balance: '-1.10' });
    const nd = lines(await cli(['accounts', 'update', acc.id, '--name', 'Rent', '-o', 'ndjson']));
    expect(nd).toHaveLength(1);
    expect(JSON.parse(nd[0]!)).toMatchObject({ id: acc.id, name: 'Rent' });
    expect(nd[0]).toContain('"balance":-1.10,');

    const csv = (await cli(['accounts', 'update', acc.id, '--name', 'Rent', '-o', 'csv'])).split('\r\n');
    expect(csv[0]).toBe('id,name,type,number,balance,currency,exclusion,favored');
    expect(csv[1]).toBe(`${acc.id},Rent,CHECKING,${acc.accountNumber},-1.10,SEK,NONE,false`);
    expect(csv).toHaveLength(3);

    const table = lines(await cli(['accounts', 'update', acc.id, '--name', 'Rent', '-o', 'table']));
    expect(table).toHaveLength(2);
    expect(table[0]).toMatch(/^ID\s+NAME\s+TYPE\s+NUMBER\s+BALANCE\s+EXCLUSION\s+FAVORED$/);
    expect(table[1]).toContain('-1.10 SEK');
  });
});

describe('loans list: json is the whole LoanResponse (its totals kept), ndjson its loans', () => {
  test('the same loans in both, totals exact', async () => {
    const json = await cli(['loans', 'list', '-o', 'json']);
    const r = JSON.parse(json);
    expect(Array.isArray(r)).toBe(false);
    expect(Object.keys(r)).toEqual(expect.arrayContaining(['loans', 'totalLoanAmount', 'weightedAverageInterestRate']));
    expect(r.loans.length).toBeGreaterThan(0);
    // the totals with the digits the service sent (two decimals, trailing zeros too)
    expect(json).toMatch(/"totalLoanAmount": -\d+\.\d{2},/);
    expect(json).toMatch(/"weightedAverageInterestRate": 0\.\d+\n/);

    const nd = lines(await cli(['loans', 'list', '-o', 'ndjson']));
    expect(nd.map((l) => JSON.parse(l))).toEqual(r.loans);
    // each loan's balance literal is the same in both
    for (const l of nd) {
      const balance = /"balance":(-?\d+\.\d+),/.exec(l)![1]!;
      expect(balance).toMatch(/\.\d{2}$/);
      expect(json).toContain(`"balance": ${balance},`);
    }
  });
});

describe("loans list -o json --fields with a loan's path", () => {
  test('exit 2 naming where the loans are and the formats that give their fields', async () => {
    const r = await spawnCli(['loans', 'list', '-o', 'json', '--fields', 'name,balance'], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-o json is the whole response, its loans under "loans"');
    const csv = await spawnCli(['loans', 'list', '-o', 'csv', '--fields', 'name,balance'], { env: sb.env });
    expect(csv.code, csv.stderr).toBe(0);
  });
});

describe('search: json is the whole SearchResponse, ndjson its transactions', () => {
  test('the same transactions in both, count and net kept in json', async () => {
    const json = await cli(['search', 'coffee', '--limit', '5', '-o', 'json']);
    const r = JSON.parse(json);
    expect(Array.isArray(r)).toBe(false);
    expect(Object.keys(r)).toEqual(expect.arrayContaining(['count', 'net', 'metrics', 'results', 'query']));
    expect(r.count).toBeGreaterThan(0);
    expect(r.results.length).toBeGreaterThan(0);

    const nd = lines(await cli(['search', 'coffee', '--limit', '5', '-o', 'ndjson']));
    expect(nd.map((l) => JSON.parse(l))).toEqual(r.results.map((x: { transaction: unknown }) => x.transaction));
    for (const l of nd) {
      const amount = /"amount":(-?[\d.]+),/.exec(l)![1]!;
      expect(json).toContain(`"amount": ${amount},`);
    }
  });
});
