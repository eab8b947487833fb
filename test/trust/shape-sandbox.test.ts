// The checks of src/api/shape.ts and the exact amount cells refuse only what is not the endpoint's:
// the sandbox's own answers (lists with data, empty lists, a null balance for an account excluded
// from aggregation) still read with exit 0, from the real CLI.
import { describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/commands.js';
import { userWithToken } from '../helpers/sandbox.js';
import { addAccount } from '../helpers/store-fixtures.js';

const sb = useSandbox({ months: 2 });

const LISTS: string[][] = [
  ['accounts', 'list'],
  ['accounts', 'list', '--v2'],
  ['credentials', 'list'],
  ['consents', 'list'],
  ['identities', 'list'],
  ['investments', 'list'],
  ['categories', 'list'],
  ['budgets', 'list'],
  ['budgets', 'summaries'],
  ['budgets', 'recommended'],
  ['providers', 'list', '--market', 'SE'],
  ['providers', 'markets'],
  ['insights', 'list'],
  ['calendar', 'periods', '--from', '2026-01-01', '--to', '2026-03-31'],
  ['webhooks', 'list'],
  ['webhooks', 'endpoints', 'list'],
  ['connector', 'webhooks', 'list'],
  ['transactions', 'list'],
];

describe("the sandbox's answers read as before", () => {
  test.concurrent.each(LISTS.map((args) => [args.join(' '), args] as const))('%s: a list, exit 0', async (_n, args) => {
    const r = await spawnCli([...args, '-o', 'json'], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
  });

  test.concurrent.each([
    ['loans list', ['loans', 'list']],
    ['users get', ['users', 'get']],
    ['search coffee', ['search', 'coffee']],
  ] as const)('%s: an object, exit 0', async (_n, args) => {
    const r = await spawnCli([...args, '-o', 'json'], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toBeTypeOf('object');
  });

  test('the lists with data: accounts, transactions and loans have rows, in table and csv too', async () => {
    for (const args of [
      ['accounts', 'list'],
      ['transactions', 'list'],
      ['loans', 'list'],
      ['investments', 'list'],
    ]) {
      const json = await spawnCli([...args, '-o', 'json'], { env: sb.env });
      expect(json.code, json.stderr).toBe(0);
      const out = JSON.parse(json.stdout);
      expect((args[0] === 'loans' ? out.loans : out).length, args.join(' ')).toBeGreaterThan(0);
      for (const format of ['table', 'csv']) {
        const r = await spawnCli([...args, '-o', format], { env: sb.env });
        expect(r.code, `${args.join(' ')} -o ${format}\n${r.stderr}`).toBe(0);
        expect(r.stdout).toMatch(/-?\d+\.\d{2}/);
      }
    }
  });

  test('an account excluded from aggregation (balance null) is an empty cell, the others exact', async () => {
    const excluded = addAccount(sb.t.sandbox.store, sb.userId, { accountExclusion: 'AGGREGATION', name: 'Hidden' });
    const exact = addAccount(sb.t.sandbox.store, sb.userId, { balance: '12345678901234567.10', name: 'Big' });
    const json = await spawnCli(['accounts', 'list', '-o', 'json'], { env: sb.env });
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toMatch(new RegExp(`"id": "${excluded.id}",[^}]*"balance": null,`));
    const csv = await spawnCli(['accounts', 'list', '-o', 'csv', '--fields', 'id,balance'], { env: sb.env });
    expect(csv.code, csv.stderr).toBe(0);
    // --fields balance is the command's balance column: with its currency column, both empty here
    expect(csv.stdout.split('\r\n')[0]).toBe('id,balance,currency');
    expect(csv.stdout).toContain(`${excluded.id},,\r\n`);
    expect(csv.stdout).toMatch(new RegExp(`${exact.id},12345678901234567.10,SEK`));
    const table = await spawnCli(['accounts', 'list', '-o', 'table'], { env: sb.env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('Hidden');
    expect(table.stdout).toContain('12345678901234567.10 SEK');
  });

  test('a user with nothing yet: empty lists, exit 0', async () => {
    const { userId } = await userWithToken(sb.t.sandbox, ['user:read']);
    const env = { ...sb.t.env, BANKCTL_USER: userId };
    for (const args of [
      ['accounts', 'list'],
      ['credentials', 'list'],
      ['consents', 'list'],
      ['identities', 'list'],
      ['investments', 'list'],
      ['budgets', 'list'],
      ['transactions', 'list'],
    ]) {
      const r = await spawnCli([...args, '-o', 'json'], { env });
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout), args.join(' ')).toEqual([]);
    }
    const loans = await spawnCli(['loans', 'list', '-o', 'json'], { env });
    expect(loans.code, loans.stderr).toBe(0);
    expect(JSON.parse(loans.stdout).loans).toEqual([]);
  });
});
