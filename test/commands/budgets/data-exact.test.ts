// `budgets create-* / update --data`: the JSON merged over the flags goes out with every digit it
// was given (it was read with JSON.parse, so 12345678901234567891 went out as 12345678901234567000).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli, tempDir } from '../../helpers/cli.js';
import { reply, scriptedServer } from '../../helpers/scripted-server.js';

const budget = {
  id: 'e2b746ed27c542ce846a8d693474df21',
  name: 'Big',
  amount: { currencyCode: 'SEK', scale: 2, unscaledValue: 1050 },
  periodicityType: 'RECURRING',
  recurringPeriodicity: { periodUnit: 'MONTH' },
  archived: false,
  filter: {},
};
let server: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  server = await scriptedServer([reply(200, JSON.stringify({ budgetSpecification: budget }))]);
});
afterAll(() => server.close());

test('--data amounts are sent exactly, beyond what a double holds', async () => {
  const amount = '{"unscaledValue":12345678901234567891,"scale":2,"currencyCode":"SEK"}';
  const r = await runCli(
    [
      ...['budgets', 'create-recurring', '--name', 'Big', '--amount', '1', '--currency', 'SEK'],
      '--data',
      `{"amount":${amount}}`,
    ],
    { env: { BANKCTL_BASE_URL: server.url, BANKCTL_TOKEN: 'token-1', BANKCTL_CONFIG_DIR: tempDir() } },
  );
  expect(r.code, r.stderr).toBe(0);
  const sent = server.seen.at(-1)!;
  expect(sent.url).toBe('/api/v1/budgets/recurring');
  expect(sent.body).toContain(`"amount":${amount}`);
});
