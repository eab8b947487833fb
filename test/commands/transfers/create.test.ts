import { describe, expect, test } from 'vitest';
import { newCmdCreate } from '../../../src/commands/transfers/create.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { runCli } from '../../helpers/cli.js';
import { reply, runWithAnswer, scriptedServer } from '../../helpers/scripted-server.js';

const sb = useSandbox({ months: 1 });
const checking = () =>
  [...sb.t.sandbox.store.accounts.values()].find((a) => a.userId === sb.userId && a.type === 'CHECKING')!;
const SRC = `platform://${'a'.repeat(32)}`;
const transfer = ['--destination', 'se://33001984', '--amount', '1250.50', '--currency', 'sek'];

describe('transfers create: flags', () => {
  optionCases('transfers create', newCmdCreate, [
    {
      name: 'the amount exactly as written, the currency upper-cased',
      args: ['--source', SRC, ...transfer],
      options: { sourceUri: SRC, amount: '1250.50', currency: 'SEK', wait: false, waitTimeoutMs: 60_000 },
    },
    {
      name: 'a zero amount',
      args: ['--source', SRC, '--destination', 'se://33001984', '--amount', '0.00', '--currency', 'SEK'],
      code: 2,
      stderr: '--amount must be a positive decimal number',
    },
    {
      name: 'a float-looking amount',
      args: ['--source', SRC, '--destination', 'se://33001984', '--amount', '1e3', '--currency', 'SEK'],
      code: 2,
      stderr: '--amount',
    },
    {
      // before, 0.001 SEK was sent, and the sandbox moved it
      name: 'more decimals than the currency has',
      args: ['--source', SRC, '--destination', 'se://33001984', '--amount', '0.001', '--currency', 'SEK'],
      code: 2,
      stderr: '--amount 0.001 has 3 decimals; SEK has 2',
    },
    {
      name: 'trailing zeros are not decimals the currency lacks; JPY has none',
      args: ['--source', SRC, '--destination', 'se://33001984', '--amount', '12.500', '--currency', 'SEK'],
      options: { amount: '12.500' },
    },
    {
      name: 'a yen amount with decimals',
      args: ['--source', SRC, '--destination', 'se://33001984', '--amount', '12.5', '--currency', 'JPY'],
      code: 2,
      stderr: '--amount 12.5 has 1 decimal; JPY has none',
    },
    {
      name: 'a payment needs a message',
      args: ['--source', SRC, '--destination', 'se-bg://5050-1055', '--amount', '1', '--currency', 'SEK'],
      code: 2,
      stderr: '--message is required for payments',
    },
    {
      name: 'a source scheme that is not allowed',
      args: ['--source', 'se-bg://5050-1055', ...transfer],
      code: 2,
      stderr: '--source:',
    },
    {
      name: 'not a currency code',
      args: ['--source', SRC, '--destination', 'se://33001984', '--amount', '1', '--currency', 'kronor'],
      code: 2,
      stderr: '--currency must be an ISO 4217 code',
    },
  ]);
});

describe('transfers create: output', () => {
  cliCases('transfers create', () => sb.env, [
    {
      name: 'the SignableOperation as created',
      args: () => ['--source', `platform://${checking().id}`, ...transfer, '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toMatchObject({ type: 'TRANSFER', status: expect.any(String) }),
    },
    {
      name: '--wait follows it to EXECUTED, each change on stderr',
      args: () => ['--source', `platform://${checking().id}`, ...transfer, '--wait', '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out).status).toBe('EXECUTED'),
      stderr: /transfer [0-9a-f]+: EXECUTED/,
    },
    {
      name: "another user's account is 4",
      args: ['--source', `platform://${'f'.repeat(32)}`, ...transfer],
      code: 4,
    },
  ]);
});

describe('transfers create: an answer that already ended', () => {
  // the Swagger: a 200 "doesn't mean the transfer is successfully initialized. Check the status field"
  test.each(['FAILED', 'CANCELLED'])('%s without --wait is exit 9, the operation still on stdout', async (status) => {
    const op = { id: 'o1', underlyingId: 't1', type: 'TRANSFER', status, statusMessage: 'Insufficient funds' };
    const r = await runWithAnswer(
      op,
      ['transfers', 'create', '--source', SRC, ...transfer, '-o', 'json'],
      sb.env.BANKCTL_CONFIG_DIR!,
    );
    expect(r.code, r.stderr).toBe(9);
    expect(JSON.parse(r.stdout)).toMatchObject({ status });
    expect(r.stderr).toContain(`transfer t1 ended ${status}: Insufficient funds`);
  });

  test('one still in progress without --wait is exit 0', async () => {
    const op = { id: 'o1', underlyingId: 't1', type: 'TRANSFER', status: 'EXECUTING' };
    const r = await runWithAnswer(
      op,
      ['transfers', 'create', '--source', SRC, ...transfer, '-o', 'json'],
      sb.env.BANKCTL_CONFIG_DIR!,
    );
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('transfers create --wait: a transfer the bank holds for the user', () => {
  test('AWAITING_CREDENTIALS names the credentials and the commands that answer; polls back off; then EXECUTED', async () => {
    const op = (status: string) =>
      JSON.stringify({ id: 'o1', underlyingId: 't1', type: 'TRANSFER', status, credentialsId: 'c0ffee', userId: 'u1' });
    const started = Date.now();
    // the status reads: AWAITING_CREDENTIALS for 2.5 s, then EXECUTED
    const server = await scriptedServer((n) =>
      n === 0
        ? reply(200, op('CREATED'))
        : reply(200, op(Date.now() - started < 2500 ? 'AWAITING_CREDENTIALS' : 'EXECUTED')),
    );
    try {
      const r = await runCli(['transfers', 'create', '--source', SRC, ...transfer, '--wait', '-o', 'json'], {
        env: { BANKCTL_BASE_URL: server.url, BANKCTL_TOKEN: 'token-1', BANKCTL_CONFIG_DIR: sb.env.BANKCTL_CONFIG_DIR! },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).status).toBe('EXECUTED');
      const lines = r.stderr.trim().split('\n');
      expect(lines).toEqual([
        'transfer t1: CREATED',
        'transfer t1: AWAITING_CREDENTIALS (the bank waits for the user to sign on credentials c0ffee: `bankctl credentials supplement c0ffee` answers its questions, `bankctl credentials qr c0ffee` shows a BankID code)',
        'transfer t1: EXECUTED',
      ]);
      // 200, 400, 800, 1600, 2000 ms...: about six reads in 2.5 s, where a fixed 200 ms took twelve
      const reads = server.seen.filter((x) => x.method === 'GET').length;
      expect(reads).toBeGreaterThanOrEqual(3);
      expect(reads).toBeLessThanOrEqual(7);
    } finally {
      await server.close();
    }
  });

  test('still awaiting at --wait-timeout: exit 9 with the same pointer as the hint', async () => {
    const op = {
      id: 'o1',
      underlyingId: 't1',
      type: 'TRANSFER',
      status: 'AWAITING_THIRD_PARTY_APP_AUTHENTICATION',
      credentialsId: 'c0ffee',
    };
    const r = await runWithAnswer(
      op,
      ['transfers', 'create', '--source', SRC, ...transfer, '--wait', '--wait-timeout', '1'],
      sb.env.BANKCTL_CONFIG_DIR!,
    );
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('error: transfer t1 is still AWAITING_THIRD_PARTY_APP_AUTHENTICATION after 1 s');
    expect(r.stderr).toContain('bankctl credentials supplement c0ffee');
  });
});
