// Data v2 through the CLI against the sandbox: accounts list --v2 (filters, paging), accounts get,
// balances --v2, parties, identities list --v2, investments accounts|holdings, loans accounts. Every
// output format, exact amounts checked against the store's decimal strings, and the wire's 401/403.
import { beforeAll, describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../helpers/commands.js';
import { raw, userWithToken } from '../helpers/sandbox.js';
import { newCmdList } from '../../src/commands/accounts/list.js';
import { newCmdHoldings } from '../../src/commands/investments/holdings.js';
import type { AccountRecord } from '../../src/sandbox/store.js';
import { decimalString } from '../../src/contract/decimal.js';

const sb = useSandbox({ months: 2 });
/** A check of stdout parsed as JSON. */
const parsed =
  <T>(f: (v: T) => unknown) =>
  (text: string): void => {
    f(JSON.parse(text) as T);
  };
let accounts: AccountRecord[] = [];
const byType = (t: string) => accounts.find((a) => a.type === t)!;
/** "1234.50 SEK" as a table or csv shows a store balance. */
const shown = (a: AccountRecord) => `${a.balance} ${a.currencyCode}`;
/** The same balance in csv: a plain decimal, then the currency in its own column. */
const csvShown = (a: AccountRecord) => `${a.balance},${a.currencyCode}`;

beforeAll(() => {
  accounts = [...sb.t.sandbox.store.accounts.values()].filter((a) => a.userId === sb.userId);
  accounts.sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1));
  expect(accounts.length).toBeGreaterThan(3);
});

describe('accounts list --v2', () => {
  optionCases('accounts list', newCmdList, [
    { name: 'v1 by default', args: [], options: {} },
    {
      name: '--v2 with filters',
      args: ['--v2', '--type', 'checking,savings', '--id', 'a', '--page-size', '2', '--all'],
      options: { v2: { types: ['CHECKING', 'SAVINGS'], ids: ['a'], pageSize: 2, pageToken: undefined, all: true } },
    },
    { name: 'a v2 flag without --v2', args: ['--type', 'CHECKING'], code: 2, stderr: '--type needs --v2' },
    { name: 'an unknown v2 type', args: ['--v2', '--type', 'PENSION'], code: 2, stderr: 'UNDEFINED, CHECKING' },
    { name: 'page size over 100', args: ['--v2', '--page-size', '101'], code: 2, stderr: '--page-size' },
  ]);
  cliCases('accounts list', () => sb.env, [
    {
      name: 'json: every account with its exact booked balance',
      args: ['--v2', '-o', 'json'],
      code: 0,
      stdout: parsed((out: Array<Record<string, any>>) => {
        expect(out.map((a) => a.id)).toEqual(accounts.map((a) => a.id));
        const c = out.find((a) => a.type === 'CHECKING')!;
        const rec = byType('CHECKING');
        expect(`${c.balances.booked.amount.value.unscaledValue}/${c.balances.booked.amount.value.scale}`).toBe(
          `${rec.balance.replace('.', '').replace(/^(-?)0+(?=\d)/, '$1')}/${rec.balance.split('.')[1]?.length ?? 0}`,
        );
      }),
    },
    {
      name: 'csv: typesIn filters, the balance exact with its currency',
      args: () => ['--v2', '--type', 'SAVINGS', '-o', 'csv'],
      code: 0,
      stdout: (out: string) => {
        const lines = out.trim().split(/\r?\n/);
        expect(lines[0]).toBe('id,name,type,number,booked,booked_currency,available,available_currency,refreshed');
        expect(lines).toHaveLength(1 + accounts.filter((a) => a.type === 'SAVINGS').length);
        expect(lines[1]).toContain(`,${csvShown(byType('SAVINGS'))},`);
      },
    },
    {
      name: 'ndjson: idIn picks accounts, one line each',
      args: () => ['--v2', '--id', accounts[0]!.id, '--id', accounts[1]!.id, '-o', 'ndjson'],
      code: 0,
      stdout: (out: string) => {
        const lines = out
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { id: string });
        expect(lines.map((l) => l.id)).toEqual([accounts[0]!.id, accounts[1]!.id]);
      },
    },
    {
      name: 'table: one page of two, and how to get the next',
      args: ['--v2', '--page-size', '2', '-o', 'table'],
      code: 0,
      stdout: (out: string) => expect(out.split(accounts[0]!.id)).toHaveLength(2),
      stderr: /more accounts: use --all, or --page-token \S+/,
    },
    {
      name: '-q keeps the line that more pages exist (stdout holds one page, exit 0)',
      args: ['--v2', '--page-size', '2', '-q', '-o', 'json'],
      code: 0,
      stderr: /^more accounts: use --all, or --page-token \S+\n$/,
    },
    {
      name: '--all follows nextPageToken to the last page',
      args: ['--v2', '--page-size', '1', '--all', '-o', 'ndjson'],
      code: 0,
      stdout: (out: string) => expect(out.trim().split('\n')).toHaveLength(accounts.length),
    },
    {
      name: 'a token that is not one',
      args: ['--v2', '--page-token', '!!'],
      code: 2,
      stderr: 'pageToken is not valid',
    },
  ]);
});

describe('accounts get, balances --v2, parties', () => {
  cliCases('accounts', () => sb.env, [
    {
      name: 'get: the v2 account, table',
      args: () => ['get', byType('CHECKING').id, '-o', 'table'],
      code: 0,
      stdout: (out: string) => {
        expect(out).toContain(shown(byType('CHECKING')));
        expect(out).toContain(byType('CHECKING').name);
      },
    },
    {
      name: 'get: json has the identifiers',
      args: () => ['get', byType('CHECKING').id, '-o', 'json'],
      code: 0,
      stdout: parsed((a: any) =>
        expect(a.identifiers.financialInstitution.accountNumber).toBe(byType('CHECKING').accountNumber),
      ),
    },
    { name: 'get: an unknown account is exit 4', args: ['get', 'nope'], code: 4, stderr: 'not found' },
    {
      name: 'balances --v2 csv: the three balance kinds, exact, with minor units',
      args: () => ['balances', byType('CHECKING').id, '--v2', '-o', 'csv'],
      code: 0,
      stdout: (out: string) => {
        const a = byType('CHECKING');
        expect(out).toContain('kind,amount,currency,minorUnits,refreshed');
        expect(out).toContain(
          `bookedBalance,${csvShown(a)},${a.balance.replace('.', '').replace(/^(-?)0+(?=\d)/, '$1')},`,
        );
        expect(out).toContain('availableBalanceExcludingCredit,');
        expect(out).toContain('availableBalanceIncludingCredit,');
      },
    },
    {
      name: 'balances --v2 json: integers as the reference writes them',
      args: () => ['balances', byType('SAVINGS').id, '--v2', '-o', 'json'],
      code: 0,
      stdout: [/"scale": 2,/, /"valueInMinorUnit": -?\d+/, /"refreshed": "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/],
    },
    {
      name: 'balances --v2 ndjson: a line per kind',
      args: () => ['balances', byType('SAVINGS').id, '--v2', '-o', 'ndjson'],
      code: 0,
      stdout: (out: string) => expect(out.trim().split('\n')).toHaveLength(3),
    },
    {
      name: 'balances without --v2 still reads v1',
      args: () => ['balances', byType('SAVINGS').id, '-o', 'json', '--verbose'],
      code: 0,
      stderr: '/api/v1/accounts/',
    },
    {
      name: 'parties table: the holder with a personal number',
      args: () => ['parties', byType('CHECKING').id, '-o', 'table'],
      code: 0,
      stdout: (out: string) => {
        expect(out).toContain('HOLDER');
        expect(out).toContain(byType('CHECKING').holderName!);
        expect(out).toMatch(/\d{8}-\d{4}/);
      },
    },
    {
      name: 'parties csv and json',
      args: () => ['parties', byType('CHECKING').id, '-o', 'csv'],
      code: 0,
      stdout: /^role,name,ssn\r?\nHOLDER,/,
    },
  ]);
});

describe('identities list --v2', () => {
  cliCases('identities list', () => sb.env, [
    {
      name: 'json: the reference shape',
      args: ['--v2', '-o', 'json'],
      code: 0,
      stdout: parsed((ids: any[]) => {
        expect(ids).toHaveLength(1);
        expect(Object.keys(ids[0]).sort()).toEqual([
          'dateOfBirth',
          'financialInstitutionId',
          'name',
          'providerName',
          'ssn',
        ]);
        expect(ids[0].ssn.slice(0, 8)).toBe(ids[0].dateOfBirth.replace(/-/g, ''));
      }),
    },
    { name: 'csv', args: ['--v2', '-o', 'csv'], code: 0, stdout: /^provider,name,ssn,dateOfBirth\r?\n.+,\d{8}-\d{4},/ },
    { name: 'table', args: ['--v2', '-o', 'table'], code: 0, stdout: /\d{4}-\d\d-\d\d/ },
  ]);
});

describe('investments accounts and holdings', () => {
  optionCases('investments holdings', newCmdHoldings, [
    {
      name: 'paging flags',
      args: ['X', '--page-size', '5', '--all'],
      options: { id: 'X', pageSize: 5, pageToken: undefined, all: true },
    },
    { name: 'page size 0', args: ['X', '--page-size', '0'], code: 2, stderr: '--page-size' },
  ]);
  cliCases('investments', () => sb.env, [
    {
      name: 'accounts csv: the booked value is the account balance, exact',
      args: ['accounts', '-o', 'csv'],
      code: 0,
      stdout: (out: string) => {
        expect(out).toMatch(
          /^id,name,product,booked,booked_currency,cash,cash_currency,holdings,holdings_currency,refreshed\r?\n/,
        );
        expect(out).toContain(`${byType('INVESTMENT').id},`);
        expect(out).toContain(`,${csvShown(byType('INVESTMENT'))},`);
      },
    },
    {
      name: 'accounts ID json: holdings plus cash add up to the balance',
      args: () => ['accounts', byType('INVESTMENT').id, '-o', 'json'],
      code: 0,
      stdout: parsed((a: any) => {
        const v = (x: any) => BigInt(x.value.unscaledValue) * 10n ** BigInt(4 - x.value.scale);
        const total = v(a.holdingValue.total) + v(a.balances.available.amount);
        expect(total).toBe(v(a.balances.booked.amount));
        expect(a.identifiers.accountNumber).toBe(byType('INVESTMENT').accountNumber);
      }),
    },
    {
      name: 'accounts ID of a checking account is exit 4',
      args: () => ['accounts', byType('CHECKING').id],
      code: 4,
      stderr: 'not found',
    },
    {
      name: 'holdings --all ndjson: every holding, values summing to the holdings total',
      args: () => ['holdings', byType('INVESTMENT').id, '--page-size', '1', '--all', '-o', 'ndjson'],
      code: 0,
      stdout: (out: string) => {
        const hs = out
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(hs.length).toBe(2);
        for (const h of hs) expect(h.financialInstrument.identifiers.isin).toMatch(/^[A-Z]{2}\d{10}$/);
      },
    },
    {
      name: 'holdings table: one page and the next token',
      args: () => ['holdings', byType('INVESTMENT').id, '--page-size', '1', '-o', 'table'],
      code: 0,
      stdout: / SEK/,
      stderr: /more holdings: use --all, or --page-token \S+/,
    },
    {
      name: 'holdings -q: the line that more pages exist is kept',
      args: () => ['holdings', byType('INVESTMENT').id, '--page-size', '1', '-q', '-o', 'ndjson'],
      code: 0,
      stderr: /^more holdings: use --all, or --page-token \S+\n$/,
    },
    {
      name: 'holdings csv',
      args: () => ['holdings', byType('INVESTMENT').id, '-o', 'csv'],
      code: 0,
      stdout: /^name,isin,type,quantity,value,value_currency,return,return_currency,avgPrice,avgPrice_currency\r?\n/,
    },
  ]);
});

describe('loans accounts', () => {
  cliCases('loans accounts', () => sb.env, [
    {
      name: 'table: mortgage and loan, principal exact',
      args: ['-o', 'table'],
      code: 0,
      stdout: (out: string) => {
        expect(out).toContain(`${byType('MORTGAGE').balance} SEK`);
        expect(out).toContain('MORTGAGE');
        expect(out).toContain('PERSONAL');
      },
    },
    {
      name: 'ID json: a loan part with its interest rate from the account',
      args: () => [byType('MORTGAGE').id, '-o', 'json'],
      code: 0,
      stdout: parsed((l: any) => {
        expect(l.loanType).toBe('MORTGAGE');
        // the reference: principal and initial are "the loan with debt expressed as a negative
        // number", the same sign as the account's balance in /data/v2/accounts (they were positive)
        const mortgage = byType('MORTGAGE').balance;
        expect(mortgage.startsWith('-')).toBe(true);
        const text = (a: any) => decimalString(String(a.value.unscaledValue), String(a.value.scale));
        for (const b of [l.balances, l.loanParts[0].balances]) {
          expect(text(b.principal)).toBe(mortgage);
          expect(text(b.initial).startsWith('-')).toBe(true);
        }
        expect(text(l.amountPaid).startsWith('-')).toBe(false);
        expect(text(l.loanParts[0].installment.amount).startsWith('-')).toBe(false);
        expect(String(l.loanParts[0].interestRate.value)).toBe('0.0389');
      }),
    },
    {
      name: 'ndjson',
      args: ['-o', 'ndjson'],
      code: 0,
      stdout: (o: string) => expect(o.trim().split('\n')).toHaveLength(2),
    },
    {
      name: 'csv',
      args: ['-o', 'csv'],
      code: 0,
      stdout:
        /^id,name,type,number,principal,principal_currency,initial,initial_currency,paid,paid_currency,refreshed\r?\n/,
    },
  ]);
});

describe('the wire: token kinds and scopes of data v2', () => {
  test('a token without the v2 scope is 403, a client token on a user-only read 401/403', async () => {
    const sbx = sb.t.sandbox;
    const { token } = await userWithToken(sbx, ['accounts:read']);
    const h = { authorization: `Bearer ${token}` };
    expect((await raw(sbx.baseUrl, 'GET', '/data/v2/identities', { headers: h })).status).toBe(403);
    expect((await raw(sbx.baseUrl, 'GET', '/data/v2/loan-accounts', { headers: h })).status).toBe(403);
    expect((await raw(sbx.baseUrl, 'GET', '/data/v2/identities')).status).toBe(401);
  });
});

describe('through the spawned binary', () => {
  test('accounts list --v2 --all -o ndjson to a pipe and loans accounts -o csv', async () => {
    const r = await spawnCli(['accounts', 'list', '--v2', '--page-size', '2', '--all', '-o', 'ndjson'], {
      env: sb.env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(accounts.length);
    const l = await spawnCli(['loans', 'accounts', '-o', 'csv'], { env: sb.env });
    expect(l.code, l.stderr).toBe(0);
    expect(l.stdout).toContain(byType('LOAN').id);
  }, 60_000);
});
