// `loans list` against loans as the reference and the Swagger send them: a Loan names no currency
// (the sandbox adds one), so the CLI takes each loan's from its account, and a balance is never shown
// without one where the service says it elsewhere. The real CLI against a node:http server.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { scriptedServer, type Seen } from '../helpers/scripted-server.js';

let server: { url: string; seen: Seen[]; close(): Promise<void> };
beforeAll(async () => {
  server = await scriptedServer(() => (req, res) => {
    const json = (doc: string) => res.writeHead(200, { 'content-type': 'application/json' }).end(doc);
    if (req.url === '/api/v1/loans')
      return json(
        '{"loans":[{"accountId":"a1","name":"Bolån","type":"MORTGAGE","balance":-1250000.5,"interest":0.0389,"loanNumber":"L-1"}],' +
          '"totalLoanAmount":-1250000.5,"weightedAverageInterestRate":0.0389}',
      );
    if (req.url === '/api/v1/accounts/list')
      return json(
        '{"accounts":[{"id":"a1","name":"Bolån","type":"MORTGAGE","balance":-1250000.5,' +
          '"currencyDenominatedBalance":{"unscaledValue":-125000050,"scale":2,"currencyCode":"SEK"}}]}',
      );
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"errorMessage":"not found"}');
  });
});
afterAll(() => server.close());

const run = (argv: string[]) =>
  runCli(argv, {
    env: { BANKCTL_BASE_URL: server.url, BANKCTL_TOKEN: 'user-token-1', BANKCTL_CONFIG_DIR: tempDir() },
  });

test("a loan's currency comes from its account: csv and table show it, and the total", async () => {
  const csv = await run(['loans', 'list', '-o', 'csv']);
  expect(csv.code, csv.stderr).toBe(0);
  expect(csv.stdout.split('\r\n')[0]).toBe('name,type,balance,currency,interest,account,loanNumber');
  expect(csv.stdout.split('\r\n')[1]).toBe('Bolån,MORTGAGE,-1250000.50,SEK,0.0389,a1,L-1');
  const table = await run(['loans', 'list', '-o', 'table']);
  expect(table.code, table.stderr).toBe(0);
  expect(table.stdout).toContain('-1250000.50 SEK');
  expect(table.stderr).toContain('total -1250000.5 SEK');
});
