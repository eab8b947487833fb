import { describe, expect, test } from 'vitest';
import { newCmdList } from '../../../src/commands/investments/list.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { scriptedServer } from '../../helpers/scripted-server.js';

const sb = useSandbox({ months: 2 });

describe('investments list', () => {
  optionCases('investments list', newCmdList, [
    {
      name: 'types upper-cased, repeatable and comma-separated',
      args: ['--portfolio-type', 'isk,kf', '--portfolio-type', 'PENSION'],
      options: { portfolioTypes: ['ISK', 'KF', 'PENSION'] },
    },
    { name: 'an unknown type', args: ['--portfolio-type', 'GOLD'], code: 2, stderr: '--portfolio-type must be one of' },
  ]);
  cliCases('investments list', () => sb.env, [
    {
      name: 'csv: the header and ISK portfolios',
      args: ['--portfolio-type', 'isk', '-o', 'csv'],
      code: 0,
      stdout: [/^id,type,account,totalValue,totalValue_currency,cash,cash_currency,instruments\r\n/, ',ISK,'],
    },
    {
      name: 'json keeps the exact values: numbers, written with the digits sent',
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => {
        expect(typeof JSON.parse(out)[0].totalValue).toBe('number');
        expect(out).toMatch(/"totalValue": \d+\.\d{2},/);
      },
    },
    { name: 'a table shows the value with its currency', args: ['-o', 'table'], code: 0, stdout: / \d+\.\d{2} SEK/ },
  ]);
});

// The reference's Portfolio names no currency; an instrument's is the one it trades in. A SEK
// account's portfolio holding a US stock is worth SEK, never USD.
test("a portfolio's values are in its account's currency, not its first instrument's", async () => {
  const s = await scriptedServer(() => (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url!.startsWith('/api/v1/accounts/list'))
      return res.end(
        JSON.stringify({
          accounts: [
            {
              id: 'acc-isk',
              balance: 231924.16,
              currencyDenominatedBalance: { unscaledValue: 23192416, scale: 2, currencyCode: 'SEK' },
            },
          ],
        }),
      );
    res.end(
      JSON.stringify({
        portfolios: [
          {
            id: 'p1',
            accountId: 'acc-isk',
            type: 'ISK',
            totalValue: 231924.16,
            cashValue: 123.5,
            instruments: [
              { name: 'Apple Inc.', currency: 'USD', marketValue: 22917.0 },
              { name: 'Ericsson B', currency: 'SEK', marketValue: 208883.66 },
            ],
          },
        ],
      }),
    );
  });
  try {
    const env = { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'tok-123456' };
    const csv = await runCli(['investments', 'list', '-o', 'csv'], { env });
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toContain('p1,ISK,acc-isk,231924.16,SEK,123.50,SEK,Apple Inc.; Ericsson B');
    expect(csv.stdout).not.toContain('USD');
  } finally {
    await s.close();
  }
});
