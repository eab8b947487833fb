// The test-bench verbs of `sandbox`, in-process against a sandbox on port 0: flags, what each
// prints, what it leaves behind, and the refusal (exit 2) against a service that is not the sandbox.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { newCmdSetStatus } from '../../src/commands/sandbox/credentials/set-status.js';
import { newCmdAdd } from '../../src/commands/sandbox/transactions/add.js';
import { newCmdLogs } from '../../src/commands/sandbox/logs.js';
import { newCmdClock } from '../../src/commands/sandbox/clock/index.js';
import { newCmdReset } from '../../src/commands/sandbox/reset.js';
import { tempDir } from '../helpers/cli.js';
import { cliCases, json, not, optionCases, useSandbox } from '../helpers/commands.js';
import { FIXTURES } from './helpers.js';

const sb = useSandbox();
const dir = tempDir();
let ids: { users: Record<string, string>; credentials: Record<string, string>; accounts: Record<string, string> };
let other: Server;
let otherUrl = '';

beforeAll(async () => {
  const { runCli } = await import('../helpers/cli.js');
  const r = await runCli(['sandbox', 'load', FIXTURES, '-o', 'json'], { env: sb.t.env });
  if (r.code !== 0) throw new Error(r.stderr);
  ids = JSON.parse(r.stdout);
  // a service that is not the sandbox: every path a 404
  other = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{}'));
  await new Promise<void>((res) => other.listen(0, '127.0.0.1', res));
  otherUrl = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((res) => other.close(() => res())));

describe('flags', () => {
  optionCases('sandbox credentials set-status', newCmdSetStatus, [
    { name: 'a status, any case', args: ['abc', 'session_expired'], options: { id: 'abc', status: 'SESSION_EXPIRED' } },
    { name: 'with a payload', args: ['abc', 'TEMPORARY_ERROR', '--payload', 'down'], options: { payload: 'down' } },
    {
      name: 'an unknown status',
      args: ['abc', 'BROKEN'],
      code: 2,
      stderr: /unknown status "BROKEN".*AUTHENTICATION_ERROR/s,
    },
    { name: 'DELETED points at credentials delete', args: ['abc', 'DELETED'], code: 2, stderr: 'credentials delete' },
  ]);
  optionCases('sandbox transactions add', newCmdAdd, [
    {
      name: 'generated',
      args: [
        '--user',
        'u1',
        '--account',
        'a1',
        '--count',
        '5',
        '--amount-range',
        '-20.50..-1.00',
        '--from',
        '2026-01-01',
        '--to',
        '2026-01-31',
        '--pending',
      ],
      options: {
        user: 'u1',
        accountId: 'a1',
        count: 5,
        amountMin: '-20.50',
        amountMax: '-1.00',
        pending: true,
        from: '2026-01-01',
      },
    },
    { name: 'no user', args: ['--account', 'a1', '--count', '1'], code: 2, stderr: 'which user?' },
    {
      name: 'count and file',
      args: ['--user', 'u', '--account', 'a', '--count', '1', '--file', 'x'],
      code: 2,
      stderr: 'either --count N or --file F',
    },
    { name: 'neither', args: ['--user', 'u', '--account', 'a'], code: 2, stderr: 'either --count N or --file F' },
    {
      name: 'a range backwards',
      args: ['--user', 'u', '--account', 'a', '--count', '1', '--amount-range', '5..1'],
      code: 2,
      stderr: 'MIN must not be above MAX',
    },
    {
      name: 'a range that is not one',
      args: ['--user', 'u', '--account', 'a', '--count', '1', '--amount-range', '1.5'],
      code: 2,
      stderr: 'MIN..MAX',
    },
    {
      name: 'from without to',
      args: ['--user', 'u', '--account', 'a', '--count', '1', '--from', '2026-01-01'],
      code: 2,
      stderr: 'together',
    },
    {
      name: 'from after to: both dates named',
      args: ['--user', 'u', '--account', 'a', '--count', '1', '--from', '2026-02-01', '--to', '2026-01-01'],
      code: 2,
      stderr: '--from 2026-02-01 is after --to 2026-01-01',
    },
    { name: 'a count too big', args: ['--user', 'u', '--account', 'a', '--count', '5000'], code: 2, stderr: '--count' },
    {
      name: 'a file: amounts kept exact',
      args: ['--user', 'u', '--account', 'a', '--file', '-'],
      stdin: '[{"amount": 12345678901234.56, "date": "2026-01-02"}]',
      options: { transactions: [{ amount: '12345678901234.56', date: '2026-01-02' }] },
    },
  ]);
  optionCases('sandbox logs', newCmdLogs, [
    {
      name: 'filters',
      args: ['--status', '4XX', '--method', 'post', '--path', '/api/*', '--since', '5m'],
      options: { status: '4xx', method: 'POST', path: '/api/*', since: '5m', follow: false },
    },
    { name: 'a class of redirects', args: ['--status', '3xx'], options: { status: '3xx' } },
    { name: 'a bad status', args: ['--status', '600'], code: 2, stderr: '--status must be a class 1xx to 5xx' },
    { name: 'a bad duration', args: ['--since', 'yesterday'], code: 2, stderr: 'not a duration' },
    { name: '--wait-timeout needs --follow', args: ['--wait-timeout', '5'], code: 2, stderr: 'goes with --follow' },
  ]);
  optionCases('sandbox clock', newCmdClock, [
    { name: 'advance', args: ['advance', '1d12h'], options: { action: 'advance', advanceMs: 36 * 3_600_000 } },
    { name: 'advance by nonsense', args: ['advance', 'soon'], code: 2, stderr: 'not a duration' },
    ...[
      ['advance', '-1d'],
      ['advance', '--', '-1d12h'],
    ].map((args) => ({
      // it was "unknown option '-1d'" (or '"-1d" is not a duration'): about a flag no one meant
      name: `a duration backwards (${args.join(' ')}) is a usage error pointing at set`,
      args,
      code: 2,
      stderr: [
        `\`sandbox clock advance\` moves the clock forward only: ${args.at(-1)} would move it back`,
        '`bankctl sandbox clock set TIME` sets an earlier time',
        not('unknown option'),
        not('not a duration'),
      ],
    })),
    { name: 'an unknown option is still one', args: ['advance', '-x'], code: 2, stderr: "unknown option '-x'" },
    { name: 'set', args: ['set', '2026-03-01'], options: { action: 'set', time: '2026-03-01' } },
    { name: 'set to a date that does not exist', args: ['set', '2026-02-30'], code: 2, stderr: 'not a time' },
  ]);
  optionCases('sandbox reset', newCmdReset, [
    { name: 'flags', args: ['--keep-clients', '--yes'], options: { keepClients: true } },
  ]);
});

describe('set-status and consents expire', () => {
  cliCases('sandbox', () => sb.t.env, [
    {
      name: 'set-status prints the new status and its error',
      args: () => [
        'credentials',
        'set-status',
        ids.credentials['alice-bank']!,
        'TEMPORARY_ERROR',
        '--payload',
        'Bank closed',
        '-o',
        'json',
      ],
      code: 0,
      stdout: json({
        status: 'TEMPORARY_ERROR',
        statusPayload: 'Bank closed',
        detailedError: { details: { retryable: true } },
      }),
      stderr: /are now TEMPORARY_ERROR/,
    },
    {
      name: 'set-status of unknown credentials: exit 4',
      args: ['credentials', 'set-status', 'nope', 'UPDATED'],
      code: 4,
      stderr: 'no credentials with id "nope"',
    },
    {
      name: 'consents expire',
      args: () => ['consents', 'expire', ids.credentials['alice-bank']!, '-o', 'json'],
      code: 0,
      stdout: json({ status: 'SESSION_EXPIRED', detailedError: { details: { reason: 'SESSION_EXPIRED' } } }),
      stderr: 'consents update-link',
    },
  ]);
});

describe('transactions add', () => {
  cliCases('sandbox transactions add', () => sb.t.env, [
    {
      name: 'generated ones: their ids, the balance moved exactly',
      args: () => [
        '--user',
        'alice-ext',
        '--account',
        ids.accounts['alice-checking']!,
        '--count',
        '4',
        '--amount-range',
        '-10.00..-10.00',
        '-o',
        'json',
      ],
      code: 0,
      stdout: (out) => {
        const r = JSON.parse(out);
        expect(r.ids).toHaveLength(4);
        expect(r.balance).toBe('12460.75'); // 12500.75 - 4 * 10.00
      },
      stderr: 'added 4 transactions',
    },
    {
      name: 'a connector account is refused with the way to fill it',
      args: () => [
        '--user',
        'carol-ext',
        '--account',
        sb.t.sandbox.store.userByExternalId('carol-ext')
          ? [...sb.t.sandbox.store.accounts.values()].find((a) => a.externalId === 'card-1')!.id
          : 'x',
        '--count',
        '1',
      ],
      code: 2,
      stderr: /connector account.*connector transactions ingest/,
    },
  ]);
});

describe('clock, logs, load', () => {
  cliCases('sandbox', () => sb.t.env, [
    {
      name: 'clock set then show',
      args: ['clock', 'set', '2030-01-15T08:00:00Z', '-o', 'json'],
      code: 0,
      stdout: json({ now: expect.stringMatching(/^2030-01-15T08:00/) }),
    },
    {
      name: 'logs: one line per request with status, token kind and request id',
      args: ['logs', '--path', '/sandbox/clock', '--method', 'POST'],
      stdoutIsTTY: true,
      code: 0,
      stdout: [/POST\s+200\s+[\d.]+ms\s+\/sandbox\/clock\s+connector\s+id=[0-9a-f-]{36}/],
    },
    {
      name: 'logs: an acting user from the environment (or profile) filters nothing; --user does',
      args: ['logs', '--path', '/sandbox/clock', '--method', 'POST', '-o', 'ndjson'],
      env: { BANKCTL_USER: 'f'.repeat(32) },
      code: 0,
      stdout: (out) => expect(out.split('\n').filter((l) => l.includes('/sandbox/clock')).length).toBeGreaterThan(0),
    },
    {
      name: "logs --user: only that user's requests",
      args: ['logs', '--path', '/sandbox/clock', '--user', 'f'.repeat(32), '-o', 'ndjson'],
      code: 0,
      stdout: (out) => expect(out.trim()).toBe(''),
    },
    {
      name: 'logs -o ndjson',
      args: ['logs', '--status', '2xx', '--limit', '2', '-o', 'ndjson'],
      code: 0,
      stdout: (out) => {
        const lines = out
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(lines).toHaveLength(2);
        for (const l of lines) expect(l.status).toBeLessThan(300);
      },
    },
    {
      // before, csv and --fields were ignored: the text lines came out
      name: 'logs -o csv --fields: a header and the fields asked for',
      args: ['logs', '--status', '2xx', '--limit', '2', '-o', 'csv', '--fields', 'method,status,path'],
      code: 0,
      stdout: (out) => {
        const rows = out.trim().split('\r\n');
        expect(rows[0]).toBe('method,status,path');
        expect(rows).toHaveLength(3);
        for (const r of rows.slice(1)) expect(r).toMatch(/^[A-Z]+,2\d\d,\//);
      },
    },
    {
      name: 'load again: nothing changes',
      args: ['load', FIXTURES, '-o', 'json'],
      code: 0,
      stdout: json({ created: 0 }),
      stderr: 'already loaded',
    },
    {
      name: 'load a bad file: every problem with its pointer, exit 2, nothing loaded',
      before: () =>
        writeFileSync(
          join(dir, 'bad.json'),
          JSON.stringify({
            users: [
              {
                name: 'zed',
                market: 'XX',
                credentials: [
                  { name: 'c', provider: 'nope', accounts: [{ name: 'a', balance: 12.5, type: 'WALLET' }] },
                ],
              },
              { name: 'zed' },
            ],
          }),
        ),
      args: ['load', join(dir, 'bad.json')],
      code: 2,
      stderr: [
        /bad\.json#\/users\/0\/market: must be a market code/,
        /bad\.json#\/users\/0\/credentials\/0\/provider: must be the name of a sandbox provider/,
        /bad\.json#\/users\/0\/credentials\/0\/accounts\/0\/type: must be one of CHECKING/,
        /bad\.json#\/users\/1\/name: "zed" is used twice/,
        'nothing was loaded',
      ],
      after: () => expect([...sb.t.sandbox.store.users.values()].some((u) => u.market === 'XX')).toBe(false),
    },
    {
      name: 'load a file that is not JSON',
      before: () => writeFileSync(join(dir, 'x.json'), '{'),
      args: ['load', join(dir, 'x.json')],
      code: 2,
      stderr: 'not JSON',
    },
    {
      name: 'reset without a terminal needs --yes',
      args: ['reset'],
      code: 2,
      stderr: /delete all data of the sandbox at .*: refusing without --yes/,
    },
  ]);
});

describe('against a service that is not the sandbox: exit 2 before anything is sent', () => {
  const env = () => ({ ...sb.t.env, BANKCTL_BASE_URL: otherUrl });
  cliCases('sandbox', env, [
    {
      name: 'clock show',
      args: ['clock', 'show'],
      code: 2,
      stderr: [/`sandbox clock` needs the bankctl sandbox/, not('at ')],
    },
    { name: 'reset', args: ['reset', '--yes'], code: 2, stderr: 'needs the bankctl sandbox' },
    { name: 'logs', args: ['logs'], code: 2, stderr: 'needs the bankctl sandbox' },
    { name: 'load', args: ['load', FIXTURES], code: 2, stderr: 'needs the bankctl sandbox' },
  ]);
});

describe('reset', () => {
  cliCases('sandbox reset', () => sb.t.env, [
    {
      name: '--keep-clients --yes: an empty store, the client still works',
      args: ['--keep-clients', '--yes', '-o', 'json'],
      code: 0,
      stdout: [json({ reset: true, keepClients: true }), not('clientSecret')],
      after: async () => {
        expect(sb.t.sandbox.store.users.size).toBe(0);
        const { runCli } = await import('../helpers/cli.js');
        const again = await runCli(['sandbox', 'load', FIXTURES, '-o', 'json'], { env: sb.t.env });
        expect(again.code, again.stderr).toBe(0);
        expect(JSON.parse(again.stdout).users).toEqual(ids.users);
      },
    },
    ...(['table', 'csv'] as const).map((format) => ({
      // csv had the clientId column alone, less than json said
      name: `--keep-clients -o ${format}: the fields json has, no more and no fewer`,
      args: ['--keep-clients', '--yes', '-o', format],
      code: 0,
      stdout: (out: string) => {
        const lines = out.trim().split(/\r?\n/);
        const fields =
          format === 'csv'
            ? Object.fromEntries(lines[0]!.split(',').map((k, i) => [k, lines[1]!.split(',')[i]]))
            : Object.fromEntries(lines.map((l) => l.split(/\s{2,}/)));
        expect(fields).toEqual({ reset: 'true', keepClients: 'true', clientId: sb.t.sandbox.clientId });
      },
    })),
  ]);
});
