// Conformance: every read command, spawned as a user runs it, against a replay of the vendor
// reference's response examples (test/conformance/replay.ts) and against the sandbox seeded with the
// same values, in every output format, with exact amounts and dates. A difference between the
// sandbox and the reference, or a shape bankctl reads wrong, fails here.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir, type CliResult } from '../helpers/cli.js';
import { startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { addAccount, addTx } from '../helpers/store-fixtures.js';
import { startReplay, type Replay } from './replay.js';
import { requires } from '../helpers/requires.js';

/** The replay answers credentials and the walker with the SDK's real payloads: without them, nothing to show. */
const needsRealworld = requires({ shared: ['realworld'] });

const FORMATS = ['json', 'ndjson', 'csv', 'table'] as const;
type Format = (typeof FORMATS)[number];

interface Target {
  name: 'replay' | 'sandbox';
  env: Record<string, string>;
  /** The account whose balances and transactions hold the reference's values. */
  accountId: string;
  provider: string;
}

let replay: Replay;
let sb: TestEnv;
const targets: Target[] = [];

beforeAll(async () => {
  replay = await startReplay();
  targets.push({
    name: 'replay',
    env: {
      BANKCTL_CONFIG_DIR: tempDir(),
      BANKCTL_BASE_URL: replay.url,
      BANKCTL_TOKEN: 'replayed-token',
      BANKCTL_RETRIES: '0',
    },
    accountId: 'a6bb87e57a8c4dd4874b241471a2b9e8',
    provider: 'se-bink-thirdpartyapp',
  });
  // the sandbox, seeded with the reference examples' values
  sb = await startTestSandbox();
  const { userId } = await userWithToken(sb.sandbox, ['user:read']);
  const store = sb.sandbox.store;
  const eur = addAccount(store, userId, {
    name: 'My account',
    accountNumber: '1234-123456789',
    balance: '10.50',
    currencyCode: 'EUR',
    holderName: 'John Doe',
    flags: ['MANDATE'],
  });
  const gbp = addAccount(store, userId, {
    name: 'GBP account',
    accountNumber: '4a2945d1481c4f4b',
    balance: '0',
    currencyCode: 'GBP',
    holderName: 'John Doe',
  });
  addTx(store, gbp, '-130.0', '2020-12-15', {
    description: 'Tesco',
    originalDescription: 'TESCO STORES 3297',
    merchantName: 'Tesco',
  });
  targets.push({
    name: 'sandbox',
    env: { ...sb.env, BANKCTL_USER: userId },
    accountId: eur.id,
    provider: 'se-test-password',
  });
}, 60_000);

afterAll(async () => {
  await replay?.close();
  await sb?.close();
});

const run = (t: Target, args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  spawnCli(args, { env: { ...t.env, ...env } });

function ok(r: CliResult): string {
  expect(r.stderr, 'no crash').not.toMatch(/unexpected|at .*\.js:\d+/);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

const ndjsonLines = (out: string): any[] =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/** The csv's rows as objects by header (no quoted commas in what is checked here). */
function csvRows(out: string): Record<string, string>[] {
  const lines = out.trim().split(/\r?\n/);
  const head = lines[0]!.split(',');
  return lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [head[i], v])));
}

describe.each(['replay', 'sandbox'] as const)('conformance against the %s', (name) => {
  const t = () => targets.find((x) => x.name === name)!;

  test.each(FORMATS)('accounts balances: the flat v1 balances, exact (-o %s)', async (format: Format) => {
    const out = ok(await run(t(), ['accounts', 'balances', t().accountId, '-o', format]));
    if (format === 'json') {
      const b = JSON.parse(out);
      expect(b.balances.booked).toEqual({ currencyCode: 'EUR', scale: 2, unscaledValue: 1050 });
      expect(typeof b.refreshed).toBe('number');
    } else if (format === 'ndjson') {
      const rows = ndjsonLines(out);
      expect(rows.find((r) => r.kind === 'booked').amount).toEqual({
        currencyCode: 'EUR',
        scale: 2,
        unscaledValue: 1050,
      });
      // when they were refreshed, on every row (the reference's refreshed, epoch ms)
      expect(rows.every((r) => typeof r.refreshed === 'number')).toBe(true);
    } else if (format === 'csv') {
      // csv: the amount a plain decimal, the currency in its own column
      const refreshed = expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
      expect(csvRows(out)).toContainEqual({ kind: 'booked', amount: '10.50', currency: 'EUR', refreshed });
      expect(csvRows(out)).toContainEqual({ kind: 'available', amount: '10.50', currency: 'EUR', refreshed });
    } else {
      expect(out).toMatch(/^KIND +AMOUNT +REFRESHED$/m);
      expect(out).toMatch(/^booked +10\.50 EUR +\d{4}-\d\d-\d\dT[\d:.]+Z$/m);
      expect(out).toMatch(/^available +10\.50 EUR +\d{4}-/m);
    }
  });

  test.each(FORMATS)('accounts list: currencyDenominatedBalance exact, flags a JSON string (-o %s)', async (format) => {
    const out = ok(await run(t(), ['accounts', 'list', '-o', format]));
    if (format === 'json' || format === 'ndjson') {
      const list = format === 'json' ? JSON.parse(out) : ndjsonLines(out);
      const a = list.find((x: any) => x.id === t().accountId);
      expect(a.currencyDenominatedBalance).toEqual({ currencyCode: 'EUR', scale: 2, unscaledValue: 1050 });
      expect(typeof a.flags).toBe('string');
      expect(JSON.parse(a.flags)).toEqual(['MANDATE']);
    } else if (format === 'csv') {
      const row = csvRows(out).find((r) => r.id === t().accountId)!;
      expect(row).toMatchObject({
        name: 'My account',
        number: '1234-123456789',
        balance: '10.50',
        currency: 'EUR',
      });
    } else {
      // off a terminal the id is not shortened
      expect(out).toMatch(new RegExp(`^${t().accountId} +My account +CHECKING +1234-123456789 +10\\.50 EUR `, 'm'));
    }
  });

  test.each(FORMATS)('transactions list: scale as a string, dates, counterparties (-o %s)', async (format) => {
    const out = ok(await run(t(), ['transactions', 'list', '-o', format]));
    if (format === 'json' || format === 'ndjson') {
      const list = format === 'json' ? JSON.parse(out) : ndjsonLines(out);
      const tx = list.find((x: any) => x.descriptions.display === 'Tesco');
      expect(tx.amount).toEqual({ currencyCode: 'GBP', value: { scale: '1', unscaledValue: '-1300' } });
      expect(tx.dates).toMatchObject({ booked: '2020-12-15', value: '2020-12-15' });
      expect(tx.bookedDateTime).toMatch(/^2020-12-15T\d\d:\d\d:\d\dZ$/);
      expect(tx.valueDateTime).toMatch(/^2020-12-15T/);
      expect(tx.transactionDateTime).toMatch(/^2020-12-1[45]T/);
      expect(tx.descriptions.detailed.unstructured).toBeTruthy();
      expect(tx.counterparties.payee.name).toBeTruthy();
    } else if (format === 'csv') {
      expect(csvRows(out)).toContainEqual(
        expect.objectContaining({ date: '2020-12-15', description: 'Tesco', amount: '-130.00', currency: 'GBP' }),
      );
    } else {
      // the amount in the currency's minor units: -130.0 GBP is -130.00 GBP
      expect(out).toMatch(/^2020-12-15 +Tesco +-130\.00 GBP /m);
    }
  });

  test.each(FORMATS)('identities list: {identities: [...]} (-o %s)', async (format) => {
    const out = ok(await run(t(), ['identities', 'list', '-o', format]));
    if (format === 'json' || format === 'ndjson') {
      const list = format === 'json' ? JSON.parse(out) : ndjsonLines(out);
      expect(list).toHaveLength(1);
      expect(list[0].name).toBe('John Doe');
      expect(list[0].ssn).toMatch(/^\d{8}-?\d{4}$/);
      expect(list[0].dateOfBirth).toMatch(/^\d{4}-\d\d-\d\d$/);
    } else if (format === 'csv') {
      const rows = csvRows(out);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.name).toBe('John Doe');
    } else {
      expect(out).toMatch(/^PROVIDER +NAME +SSN +DATE OF BIRTH$/m);
      expect(out).toMatch(/^\S+ +John Doe +\d{8}-?\d{4} +\d{4}-\d\d-\d\d$/m);
    }
  });

  test.each(FORMATS)("providers get NAME: one provider from a market's list (-o %s)", async (format) => {
    const out = ok(await run(t(), ['providers', 'get', t().provider, '--market', 'SE', '-o', format]));
    if (format === 'json' || format === 'ndjson') {
      const p = format === 'json' ? JSON.parse(out) : ndjsonLines(out)[0];
      expect(p.name).toBe(t().provider);
      expect(p.market).toBe('SE');
      // the reference's Provider fields
      expect(Array.isArray(p.financialServices)).toBe(true);
      expect(Array.isArray(p.pisCapabilities)).toBe(true);
      expect('releaseStatus' in p).toBe(true);
    } else {
      expect(out).toContain(t().provider);
      expect(out).toMatch(/financialServices/);
    }
  });

  test('providers get: none in the market is exit 4, naming it', async () => {
    const r = await run(t(), ['providers', 'get', 'se-no-such-bank', '--market', 'SE']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/provider se-no-such-bank not found in market SE/);
    expect(r.stdout).toBe('');
  });

  test('balance-refresh create --wait: FINISHED is exit 0, the answer carries credentialsId', async () => {
    const r = await run(t(), ['balance-refresh', 'create', '--account', t().accountId, '--wait', '-o', 'json']);
    const out = JSON.parse(ok(r));
    expect(out.status).toBe('FINISHED');
    expect(out.credentialsId).toMatch(/^[0-9a-f]{32}$/);
  });

  test('--verbose: each trace line carries the X-Request-ID bankctl sent and the service answered', async () => {
    const r = await run(t(), ['accounts', 'balances', t().accountId, '--verbose', '-o', 'json']);
    ok(r);
    const line = r.stderr.split('\n').find((l) => l.includes(`/api/v1/accounts/${t().accountId}/balances -> 200`));
    if (name === 'replay') {
      // the replay answers with its own UUID: both ids are printed
      expect(line).toMatch(/X-Request-ID [0-9a-f-]{36} \(sent [0-9a-f-]{36}\)$/);
    } else {
      // the sandbox keeps a valid incoming X-Request-ID, so the service's id is the one bankctl sent
      // (a UUID, not the sandbox's own <prefix>-<12 hex> form), and bankctl prints it once
      expect(line).toMatch(/X-Request-ID [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });
});

needsRealworld.describe('conformance: what only the replay can show', () => {
  const env = () => targets[0]!.env;

  test.each(FORMATS)('negative scales: scale "-3" unscaledValue "5" is 5000 (-o %s)', async (format) => {
    replay.override('GET', /^\/data\/v2\/transactions$/, () => ({
      status: 200,
      body: {
        nextPageToken: '',
        transactions: [
          {
            id: 'neg',
            accountId: 'acc',
            amount: { currencyCode: 'SEK', value: { scale: '-3', unscaledValue: '5' } },
            dates: { booked: '2021-01-02' },
            descriptions: { display: 'Salary', original: 'SALARY' },
            status: 'BOOKED',
          },
        ],
      },
    }));
    const r = await spawnCli(['transactions', 'list', '-o', format], { env: env() });
    const out = ok(r);
    if (format === 'csv')
      expect(csvRows(out)[0]).toMatchObject({
        date: '2021-01-02',
        description: 'Salary',
        amount: '5000.00',
        currency: 'SEK',
      });
    else if (format === 'table') expect(out).toMatch(/^2021-01-02 +Salary +5000\.00 SEK /m);
    else {
      const tx = format === 'json' ? JSON.parse(out)[0] : ndjsonLines(out)[0];
      expect(tx.amount.value).toEqual({ scale: '-3', unscaledValue: '5' });
    }
  });

  test('balance-refresh create --wait: FAILED is exit 9 naming the status', async () => {
    replay.override('GET', /^\/api\/v1\/balance-refresh\/[^/]+$/, () => ({ status: 200, body: { status: 'FAILED' } }));
    const r = await spawnCli(['balance-refresh', 'create', '--account', 'x', '--wait', '-o', 'json'], { env: env() });
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(/balance refresh f45dbb0a61124104a1ac517908812e87 ended with status FAILED/);
  });

  test('a one-line HTTP error carries the service X-Request-ID and the one sent', async () => {
    const before = replay.seen.length;
    // --yes: off a terminal a destructive command refuses without it
    const r = await spawnCli(['credentials', 'delete', 'nope', '--yes'], { env: env() });
    expect(r.code).toBe(4);
    const seen = replay.seen.slice(before).find((s) => s.method === 'DELETE')!;
    const sent = seen.headers['x-request-id'];
    expect(sent).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.stderr).toContain(`[X-Request-ID ${seen.requestId} (sent ${sent})]`);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  test.each(FORMATS)(
    'investments, loans and provider consents: JSON numbers as the reference wrote them (-o %s)',
    async (format) => {
      const inv = ok(await spawnCli(['investments', 'list', '-o', format], { env: env() }));
      const loans = ok(await spawnCli(['loans', 'list', '-o', format], { env: env() }));
      const consents = ok(await spawnCli(['consents', 'list', '-o', format], { env: env() }));
      if (format === 'json') {
        expect(inv).toContain('"marketValue": 22917.0');
        expect(inv).toContain('"totalValue": 231924.16');
        expect(loans).toContain('"balance": -9000.0');
        expect(JSON.parse(consents)[0]).toMatchObject({ sessionExtendable: true, sessionExpiryDate: 1493379467000 });
      } else if (format === 'ndjson') {
        expect(inv).toContain('"marketValue":22917.0');
        expect(loans).toContain('"balance":-9000.0');
      } else {
        // the portfolio's account is not in the replay's accounts list: its currency is unknown, and
        // the instrument's (the one it trades in) is not taken for it
        if (format === 'csv') expect(inv).toMatch(/,231924\.16,,123\.5,,/);
        else expect(inv).toMatch(/231924\.16 +123\.5 /);
        expect(loans).toMatch(/-9000\.0/);
        expect(consents).toMatch(/2017-04-28T11:37:47\.000Z/);
      }
    },
  );

  test.each(FORMATS)('credentials list and get: supplementalInformation as a JSON string (-o %s)', async (format) => {
    const list = ok(await spawnCli(['credentials', 'list', '-o', format], { env: env() }));
    expect(list).toContain('handelsbanken-bankid');
    const card = ok(await spawnCli(['credentials', 'get', 'cardreader', '-o', format], { env: env() }));
    const app = ok(await spawnCli(['credentials', 'get', 'iosdemo', '-o', format], { env: env() }));
    if (format === 'json' || format === 'ndjson') {
      const c = format === 'json' ? JSON.parse(card) : ndjsonLines(card)[0];
      expect(typeof c.supplementalInformation).toBe('string');
      expect(JSON.parse(c.supplementalInformation)[0].name).toBe('loginDescriptionField');
    } else {
      expect(card).toContain('fields: loginDescriptionField (read-only) = 8249, loginInputField');
      expect(app).toContain('third-party app: desktop https://test.com');
    }
  });

  test.each(FORMATS)('users create and token answers keep every field (id_hint) (-o %s)', async (format) => {
    const { BANKCTL_TOKEN: _token, ...rest } = env();
    const noToken = { ...rest, BANKCTL_CLIENT_ID: 'cid', BANKCTL_CLIENT_SECRET: 'secret' };
    const user = ok(await spawnCli(['users', 'create', '--market', 'SE', '-o', format], { env: noToken }));
    expect(user).toContain('user_123_abc');
    expect(user).toContain('6e68cc6287704273984567b3300c5823');
    const token = ok(await spawnCli(['auth', 'exchange', 'a-code', '-o', format], { env: noToken }));
    expect(token).toContain('John Doe');
    expect(token).toContain('7200');
    const code = ok(
      await spawnCli(['auth', 'grant', '--user', 'u1', '--scope', 'accounts:read', '-o', format], {
        env: noToken,
      }),
    );
    expect(code).toContain('c50cd6960a6f44ffb701ef60fafa7761');
  });

  test("the walker on a card reader: the read-only field's text is shown, its value sent with the answer", async () => {
    const before = replay.seen.length;
    const args = ['credentials', 'refresh', 'cardreader', '--wait', '--answer', 'loginInputField=98765'];
    const r = await spawnCli([...args, '--poll-interval', '20', '-o', 'json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Login using your Card Reader. Enter the security code and press Ok.');
    expect(r.stderr).toContain('Security Code: 8249');
    const sent = replay.seen.slice(before).find((s) => s.url.endsWith('/supplemental-information'))!;
    expect(JSON.parse(sent.body)).toEqual({ information: { loginDescriptionField: '8249', loginInputField: '98765' } });
    expect(JSON.parse(r.stdout).status).toBe('UPDATED');
  });

  test('the walker on a third-party app: desktop.url for the person at the computer, the mobile links too', async () => {
    const args = ['credentials', 'refresh', 'iosdemo', '--wait', '--no-browser'];
    const r = await spawnCli([...args, '--poll-interval', '20', '-o', 'json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('AWAITING_THIRD_PARTY_APP_AUTHENTICATION');
    expect(r.stderr).toContain('Log in on this computer: https://test.com');
    expect(r.stderr).toContain('iOS: this.is.not.a.valid.deeplink');
    expect(r.stderr).toContain('Android: this.is.not.a.valid.intent');
  });

  test('the walker on MOBILE_BANKID: AWAITING_MOBILE_BANKID_AUTHENTICATION shows the autostart link', async () => {
    const args = ['credentials', 'refresh', 'autostart', '--wait'];
    const r = await spawnCli([...args, '--poll-interval', '20', '-o', 'json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('AWAITING_MOBILE_BANKID_AUTHENTICATION');
    expect(r.stderr).toContain('bankid:///?autostarttoken=4d13a3a4-38e9-37d8-11cc-6e89982e4b70&redirect=null');
  });
});
