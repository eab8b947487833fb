// statistics query against a service that writes its values as JSON numbers the way money is
// written (1.10, 1200.00, more digits than a double holds): each shown with the digits sent, in the
// table (and its bars) and in csv. Before, every value a double would not give back unchanged was
// shown as 0 and the bars scaled to the one value left. A value that is not a number is exit 7.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonAnswerServer } from '../helpers/scripted-server.js';
import { spawnCli, tempDir } from '../helpers/cli.js';

let server: Awaited<ReturnType<typeof jsonAnswerServer>>;
beforeAll(async () => {
  server = await jsonAnswerServer();
});
afterAll(() => server.close());

const stat = (description: string, value: string) =>
  `{"type":"expenses-by-category","period":"2026-01","resolution":"MONTHLY","description":"${description}","payload":"p-${description}","value":${value}}`;

const run = (args: string[]) =>
  spawnCli(['statistics', 'query', '--type', 'expenses-by-category', '--resolution', 'MONTHLY', ...args], {
    env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: server.url, BANKCTL_TOKEN: 'tok', BANKCTL_RETRIES: '0' },
  });

describe('statistics values as the service writes them', () => {
  test('csv and table show every value with its digits', async () => {
    server.body = `[${stat('a', '1.10')},${stat('b', '90071992547409.93')},${stat('c', '250.5')},${stat('d', '1200.00')},${stat('e', '1.5e3')}]`;
    const csv = await run(['-o', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const values = csv.stdout
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.split(',').slice(-2).join(','));
    // the value and its currency: the Swagger's bare number names none
    expect(values).toEqual(['1.10,', '90071992547409.93,', '250.5,', '1200.00,', '1500,']);
    const table = await run(['-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    for (const v of ['1.10', '90071992547409.93', '1200.00']) expect(table.stdout).toContain(v);
    expect(table.stdout).not.toMatch(/\s0\s*$/m);
  });

  test('a value that is not a number is exit 7, not 0', async () => {
    server.body = `[${stat('a', '1.10')},${stat('b', '"12.50"')}]`;
    const r = await run(['-o', 'csv']);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('answered a statistic whose value is not a number ("12.50")');
    server.body = `[{"type":"expenses-by-category","period":"2026-01","description":"x","payload":"p"}]`;
    const missing = await run(['-o', 'csv']);
    expect(missing.code).toBe(7);
    expect(missing.stderr).toContain('whose value is missing');
  });
});
