// csv splits an amount into the decimal and its currency whatever the code looks like (a bank's
// USDC, a lowercase sek), so the number column holds numbers only; a garbage code with control
// characters is shown escaped in quotes, never as a repaired SEK.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonAnswerServer } from '../helpers/scripted-server.js';
import { runCli, tempDir } from '../helpers/cli.js';

let server: Awaited<ReturnType<typeof jsonAnswerServer>>;
beforeAll(async () => {
  server = await jsonAnswerServer();
});
afterAll(() => server.close());

const tx = (id: string, currencyCode: string, unscaledValue: string) => ({
  id,
  accountId: 'acc',
  amount: { currencyCode, value: { scale: '2', unscaledValue } },
  dates: { booked: '2026-01-01' },
  descriptions: { display: 'Shop' },
  status: 'BOOKED',
});

describe('csv amounts with unusual currency codes', () => {
  test('USDC and sek split like SEK; a code with controls shown escaped', async () => {
    server.body = JSON.stringify({
      transactions: [tx('t1', 'SEK', '-123456789'), tx('t2', 'USDC', '-5000'), tx('t3', 'sek', '12')],
      nextPageToken: '',
    });
    const r = await runCli(['transactions', 'list', '--fields', 'id,amount', '-o', 'csv'], {
      env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: server.url, BANKCTL_TOKEN: 'tok' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\r\n').filter(Boolean)).toEqual([
      'id,amount,currency',
      't1,-1234567.89,SEK',
      't2,-50.00,USDC',
      't3,0.12,sek',
    ]);
    server.body = JSON.stringify({ transactions: [tx('t4', '\u001b]0;x\u0007SE\u202eK', '500')], nextPageToken: '' });
    const garbage = await runCli(['transactions', 'list', '--fields', 'id,amount', '-o', 'csv'], {
      env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: server.url, BANKCTL_TOKEN: 'tok' },
    });
    expect(garbage.code, garbage.stderr).toBe(0);
    expect(garbage.stdout).not.toMatch(/,SEK\r?$/m);
    expect(garbage.stdout).toContain('\\u001b]0;x\\u0007SE\\u202eK');
    // the command's own columns too, in csv and in a table: stripped, that code would read "SEK"
    for (const format of ['csv', 'table']) {
      const r = await runCli(['transactions', 'list', '-o', format], {
        env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: server.url, BANKCTL_TOKEN: 'tok' },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/5\.00[ ,]SEK/);
      expect(r.stdout).toContain('5.00 \\u001b]0;x\\u0007SE\\u202eK');
    }
  });

  test('an empty answer keeps the currency column of an amount, so columns do not move on an empty day', async () => {
    server.body = JSON.stringify({ transactions: [], nextPageToken: '' });
    for (const fields of [[], ['--fields', 'id,amount']]) {
      const r = await runCli(['transactions', 'list', ...fields, '-o', 'csv'], {
        env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: server.url, BANKCTL_TOKEN: 'tok' },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\r\n')[0]).toContain('amount,currency');
    }
  });
});
