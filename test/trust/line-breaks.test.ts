// Line breaks in a bank's text (LF, CR, CRLF, U+2028, U+2029, NEL, VT, FF) never make a line of
// their own in a table: a transaction description or a provider's display name cannot fake a
// row under it. Each shows as a space; -o json keeps the text exactly as it came.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { readyTokenEnv, scriptedServer } from '../helpers/scripted-server.js';

/** Each would start a line somewhere: a terminal (LF, CR), a log viewer or a browser (U+2028...). */
const FAKE_ROW = 'Coffee\n2026-11-30  Refund  +9999.00 SEK\rX\r\nY\u2028Z\u2029W\u0085V\vU\fT';
const SHOWN = 'Coffee 2026-11-30  Refund  +9999.00 SEK X Y Z W V U T';

const transactions = [
  {
    id: 't1',
    accountId: 'a1',
    amount: { currencyCode: 'SEK', value: { scale: '2', unscaledValue: '-1050' } },
    dates: { booked: '2026-11-29' },
    descriptions: { display: FAKE_ROW, original: FAKE_ROW },
    status: 'BOOKED',
  },
  {
    id: 't2',
    accountId: 'a1',
    amount: { currencyCode: 'SEK', value: { scale: '2', unscaledValue: '-500' } },
    dates: { booked: '2026-11-28' },
    descriptions: { display: 'Bus', original: 'Bus' },
    status: 'BOOKED',
  },
];
const providers = [
  { name: 'se-bank', displayName: FAKE_ROW, type: 'BANK', market: 'SE', credentialsType: 'PASSWORD' },
  { name: 'se-other', displayName: 'Other', type: 'BANK', market: 'SE', credentialsType: 'PASSWORD' },
];

let server: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  server = await scriptedServer(() => (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url!.startsWith('/data/v2/transactions')) res.end(JSON.stringify({ transactions, nextPageToken: '' }));
    else if (req.url!.startsWith('/connectivity/v2/consents/k1/authorizations')) {
      // started AWAITING_INPUT with a redirect URI, read back FAILED with the bank's message
      const started = req.method === 'POST';
      res.end(
        JSON.stringify({
          id: 'z1',
          consentId: 'k1',
          state: started ? 'AWAITING_INPUT' : 'FAILED',
          supplementalInformation: { redirectUri: 'https://bank.example/login\nerror: fake line' },
          ...(started ? {} : { detailedError: { displayMessage: 'Declined\u2028error: another fake' } }),
        }),
      );
    } else if (req.url!.startsWith('/api/v1/credentials/c1'))
      res.end(JSON.stringify({ id: 'c1', status: 'UPDATED', statusUpdated: 1764460800000, statusPayload: FAKE_ROW }));
    else res.end(JSON.stringify({ providers }));
  });
});
afterAll(() => server.close());

const COMMANDS = [
  ['transactions', 'list'],
  ['providers', 'list', '--market', 'SE'],
];

describe('a line break in bank text', () => {
  test.each(COMMANDS.map((c) => [c.join(' '), c]))(
    '%s on a terminal: one line a row, the break a space',
    async (_n, args) => {
      const r = await runCli([...args, '-o', 'table', '--wide'], { env: readyTokenEnv(server.url), stdoutIsTTY: true });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(SHOWN);
      // the header and two rows, nothing else: no line the description drew
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(3);
      expect(r.stdout).not.toMatch(/[\r\u2028\u2029\u0085\v\f]/);
    },
  );

  test.each(COMMANDS.map((c) => [c.join(' '), c]))('%s to a pipe (-o table): the same', async (_n, args) => {
    const r = await spawnCli([...args, '-o', 'table'], { env: readyTokenEnv(server.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(SHOWN);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(r.stdout).not.toMatch(/[\r\u2028\u2029\u0085\v\f]/);
  });

  test('providers get (one object, key/value lines): the value on its line', async () => {
    const r = await runCli(['providers', 'get', 'se-bank', '--market', 'SE', '-o', 'table', '--wide'], {
      env: { ...readyTokenEnv(server.url), NO_COLOR: '1' },
      stdoutIsTTY: true,
    });
    expect(r.code, r.stderr).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.startsWith('displayName'));
    expect(line).toMatch(new RegExp(`^displayName\\s+${SHOWN.replace(/[.+]/g, '\\$&')}$`));
    expect(r.stdout).not.toMatch(/[\r\u2028\u2029\u0085\v\f]/);
  });

  test('credentials watch, a line a change: the status payload on that line', async () => {
    const r = await runCli(['credentials', 'watch', 'c1', '-o', 'table'], {
      env: readyTokenEnv(server.url),
      stdoutIsTTY: true,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`2025-11-30T00:00:00.000Z  UPDATED  ${SHOWN}\n`);
  });

  test('consents v2 authorize --wait: the login URI notice and the failure on one line each', async () => {
    const r = await runCli(['consents', 'v2', 'authorize', 'k1', '--wait', '-o', 'json'], {
      env: readyTokenEnv(server.url),
    });
    expect(r.code, r.stderr).toBe(9);
    expect(r.stderr).toContain('log in at the bank: https://bank.example/login error: fake line');
    expect(r.stderr).toContain('authorization z1 ended FAILED: Declined error: another fake');
    expect(r.stderr.split('\n').some((l) => l.startsWith('error: fake') || l.startsWith('error: another'))).toBe(false);
    expect(r.stderr).not.toMatch(/[\u2028\u2029]/);
  });

  test('-o json keeps the text exactly, on a terminal too', async () => {
    for (const tty of [false, true]) {
      const r = await runCli(['transactions', 'list', '-o', 'json'], {
        env: readyTokenEnv(server.url),
        stdoutIsTTY: tty,
      });
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as typeof transactions)[0]!.descriptions.display).toBe(FAKE_ROW);
    }
  });
});
