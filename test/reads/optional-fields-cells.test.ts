// Tables and csv read a v2 item's optional fields where the service put them: an account whose only
// identifier is an IBAN (or a card), a transaction with only `bookedDateTime` or an empty display
// text showed blank cells, with every fact in the json.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { scriptedServer, type Step, readyTokenEnv } from '../helpers/scripted-server.js';

let server: Awaited<ReturnType<typeof scriptedServer>>;
const money = { currencyCode: 'SEK', value: { unscaledValue: '-1050', scale: '2' } };

beforeAll(async () => {
  const step: Step = (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url!.startsWith('/data/v2/accounts'))
      res.end(
        JSON.stringify({
          accounts: [
            {
              id: 'acc-iban',
              name: 'Euro',
              type: 'CHECKING',
              identifiers: { iban: { iban: 'SE4550000000058398257466' } },
            },
            {
              id: 'acc-card',
              name: 'Card',
              type: 'CREDIT_CARD',
              identifiers: { pan: { masked: '4321 **** **** 1234' } },
            },
            {
              id: 'acc-both',
              name: 'Both',
              type: 'SAVINGS',
              identifiers: { financialInstitution: { accountNumber: '5000-1234' }, iban: { iban: 'SE00' } },
            },
          ],
          nextPageToken: '',
        }),
      );
    else
      res.end(
        JSON.stringify({
          transactions: [
            {
              id: 't1',
              amount: money,
              bookedDateTime: '2026-11-30T12:16:58Z',
              descriptions: { display: '', original: 'ICA KVANTUM' },
            },
            {
              id: 't2',
              amount: money,
              dates: { booked: '2026-11-29' },
              descriptions: { display: 'Coffee', original: 'PRESSBYRAN 123' },
            },
          ],
          nextPageToken: '',
        }),
      );
  };
  server = await scriptedServer(() => step);
});
afterAll(() => server.close());

const run = (args: string[]) =>
  spawnCli(args, {
    env: readyTokenEnv(server.url),
  });

test("accounts list --v2: the number column is the bank's number, else the IBAN, else the masked card", async () => {
  const r = await run(['accounts', 'list', '--v2', '-o', 'csv']);
  expect(r.code, r.stderr).toBe(0);
  const [head, ...rows] = r.stdout.trim().split('\n');
  const number = head!.split(',').indexOf('number');
  expect(rows.map((l) => l.split(',')[number])).toEqual([
    'SE4550000000058398257466',
    '4321 **** **** 1234',
    '5000-1234',
  ]);
});

test("transactions list: the date is bookedDateTime when dates are absent; an empty display text is the bank's own", async () => {
  const r = await run(['transactions', 'list', '-o', 'csv']);
  expect(r.code, r.stderr).toBe(0);
  const [head, ...rows] = r.stdout.trim().split('\n');
  expect(head!.split(',').slice(0, 2)).toEqual(['date', 'description']);
  expect(rows.map((l) => l.split(',').slice(0, 2))).toEqual([
    ['2026-11-30T12:16:58Z', 'ICA KVANTUM'],
    ['2026-11-29', 'Coffee'],
  ]);
});
