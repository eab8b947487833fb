// The status-machine walker against a tiny scripted node:http server, for the shapes the sandbox
// does not send: supplementalInformation as an array, an object and a serialized string, several
// rounds, repeated polls of one round, rounds without statusUpdated, unknown statuses, the extra
// final statuses, the wait timeout, Ctrl-C, and the prompts (scripted prompter on a pretend TTY).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { run } from '../../src/main.js';
import { testIO } from '../../src/io.js';
import { ScriptedPrompter } from '../../src/prompts/scripted.js';
import { never, reply, scriptedServer } from '../helpers/scripted-server.js';

type State = Record<string, unknown>;

/** A credentials resource that walks through `states`: `polls` GETs each, or until a POST when `await`. */
interface Step {
  state: State;
  /** How many GETs show this state before the next (default 1). */
  polls?: number;
  /** Stay until the supplemental information arrives. */
  await?: boolean;
}

interface Fake {
  url: string;
  posts: Array<Record<string, unknown>>;
  gets: number;
  close(): Promise<void>;
}

const servers: Fake[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function fakeService(steps: Step[]): Promise<Fake> {
  let i = 0;
  let shown = 0;
  const fake: Fake = { url: '', posts: [], gets: 0, close: async () => undefined };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const send = (status: number, json?: unknown) => {
        res.writeHead(status, json === undefined ? {} : { 'content-type': 'application/json' });
        res.end(json === undefined ? undefined : JSON.stringify(json));
      };
      const url = req.url ?? '';
      if (req.method === 'POST' && url.startsWith('/api/v1/credentials/c1/refresh')) return send(204);
      if (req.method === 'POST' && url === '/api/v1/credentials/c1/supplemental-information') {
        const step = steps[i]!;
        if (!step.await)
          return send(400, { errorMessage: 'not waiting for supplemental information', errorCode: 'request.invalid' });
        fake.posts.push(JSON.parse(body));
        i++;
        shown = 0;
        return send(204);
      }
      if (req.method === 'GET' && url === '/api/v1/credentials/c1') {
        fake.gets++;
        const step = steps[Math.min(i, steps.length - 1)]!;
        send(200, { id: 'c1', providerName: 'fake-bank', userId: 'u1', ...step.state });
        shown++;
        if (!step.await && shown >= (step.polls ?? 1) && i < steps.length - 1) {
          i++;
          shown = 0;
        }
        return;
      }
      send(404, { errorMessage: `no route ${req.method} ${url}`, errorCode: 'resource.not_found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  servers.push(fake);
  return fake;
}

const env = (f: Fake) => ({
  BANKCTL_BASE_URL: f.url,
  BANKCTL_TOKEN: 'test-token-123456',
  BANKCTL_CONFIG_DIR: tempDir(),
  BANKCTL_RETRIES: '0',
});
const walk = (f: Fake, extra: string[] = [], opts: Parameters<typeof runCli>[1] = {}) =>
  runCli(
    ['credentials', 'refresh', 'c1', '--wait', '--poll-interval', '10', '--wait-timeout', '5', '-o', 'json', ...extra],
    { env: env(f), ...opts },
  );

/** The walk on a pretend terminal, its questions answered by the scripted prompter. */
const onTerminal = (f: Fake, prompter: ScriptedPrompter, extra: string[] = []) =>
  runCli(['credentials', 'refresh', 'c1', '--wait', '--poll-interval', '10', ...extra, '-o', 'json'], {
    env: env(f),
    stdinIsTTY: true,
    stdoutIsTTY: true,
    context: { prompter },
  });

describe('walker: shapes and rounds', () => {
  test('mobile eID without an autostart token: the way to its QR code is said', async () => {
    const f = await fakeService([
      { state: { status: 'AWAITING_MOBILE_BANKID_AUTHENTICATION', statusUpdated: 1 }, polls: 2 },
      { state: { status: 'UPDATED', statusUpdated: 2 } },
    ]);
    const r = await walk(f);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'open your mobile eID app to authenticate (its QR code: `bankctl credentials qr c1 -O qr.png`)',
    );
  });

  test('an array, a single-field object and a serialized string, each a round of its own; a repeated round is answered once; an unknown status is shown and passed', async () => {
    const f = await fakeService([
      { state: { status: 'AUTHENTICATING', statusUpdated: 1 } },
      {
        state: {
          status: 'AWAITING_SUPPLEMENTAL_INFORMATION',
          statusUpdated: 2,
          supplementalInformation: [{ name: 'otp', description: 'One-time code', numeric: true }],
        },
        await: true,
      },
      {
        state: {
          status: 'AWAITING_SUPPLEMENTAL_INFORMATION',
          statusUpdated: 2,
          supplementalInformation: [{ name: 'otp', description: 'One-time code', numeric: true }],
        },
        polls: 3,
      },
      {
        state: {
          status: 'AWAITING_SUPPLEMENTAL_INFORMATION',
          statusUpdated: 3,
          supplementalInformation: { name: 'pin', description: 'PIN', masked: true },
        },
        await: true,
      },
      {
        state: { status: 'AWAITING_SECOND_FACTOR_FROM_THE_FUTURE', statusUpdated: 4, statusPayload: 'something new' },
        polls: 2,
      },
      {
        state: {
          status: 'AWAITING_SUPPLEMENTAL_INFORMATION',
          statusUpdated: 5,
          supplementalInformation: JSON.stringify([{ name: 'word', description: 'Secret word', minLength: 3 }]),
        },
        await: true,
      },
      { state: { status: 'UPDATING', statusUpdated: 6 } },
      { state: { status: 'UPDATED', statusUpdated: 7, extraProperty: { kept: true } } },
    ]);
    const r = await walk(f, ['--answer', 'otp=1234', '--answer', 'pin=987654', '--answer', 'word=banana']);
    expect(r.code, r.stderr).toBe(0);
    expect(f.posts).toEqual([
      { information: { otp: '1234' } },
      { information: { pin: '987654' } },
      { information: { word: 'banana' } },
    ]);
    expect(r.stderr).toMatch(
      /status AWAITING_SECOND_FACTOR_FROM_THE_FUTURE is not one this client knows; still waiting/,
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'UPDATED', extraProperty: { kept: true } });
    expect(r.stdout + r.stderr).not.toContain('987654');
  });

  test('a map of fields, a {fields: [...]} object, a double-serialized string; rounds told apart by their content when statusUpdated is missing', async () => {
    const f = await fakeService([
      {
        state: {
          status: 'AWAITING_SUPPLEMENTAL_INFORMATION',
          supplementalInformation: { code: { description: 'Code' } },
        },
        await: true,
      },
      {
        state: {
          status: 'AWAITING_SUPPLEMENTAL_INFORMATION',
          supplementalInformation: { fields: [{ name: 'code', description: 'Code again' }] },
        },
        await: true,
      },
      {
        state: {
          status: 'AWAITING_SUPPLEMENTAL_INFORMATION',
          supplementalInformation: JSON.stringify(JSON.stringify([{ name: 'last', description: 'Last' }])),
        },
        await: true,
      },
      { state: { status: 'UPDATED' } },
    ]);
    const r = await walk(f, ['--answer', 'code=1111', '--answer', 'last=x']);
    expect(r.code, r.stderr).toBe(0);
    expect(f.posts).toEqual([
      { information: { code: '1111' } },
      { information: { code: '1111' } },
      { information: { last: 'x' } },
    ]);
  });

  test('the statuses beyond the spec end the walk with exit 9 and the service message', async () => {
    for (const status of ['PERMANENT_ERROR', 'SESSION_EXPIRED', 'DELETED', 'TEMPORARY_ERROR']) {
      const f = await fakeService([
        // the read before the request: the previous round's end
        { state: { status: 'UPDATED', statusUpdated: 1 } },
        { state: { status: 'AUTHENTICATING', statusUpdated: 2 } },
        { state: { status, statusUpdated: 3, statusPayload: `the bank says ${status}` } },
      ]);
      const r = await walk(f);
      expect(r.code, status).toBe(9);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`error: credentials c1 ended in ${status}: the bank says ${status}`));
      // a final PERMANENT_ERROR is never sent back to refresh, authenticate or update
      if (status === 'PERMANENT_ERROR') {
        expect(r.stderr).toMatch(/cannot be used again .*`bankctl credentials delete c1`/);
        expect(r.stderr).not.toMatch(/credentials (refresh|update|authenticate)/);
      }
    }
  });

  // CI once saw it: `credentials create` started a round, `refresh --wait` read it UPDATING, the round
  // ended, the refresh was taken (one at a time) and the walk's first read showed the old round's
  // UPDATED, which it took for the new round's end while the new round had not begun
  test('a round running when the request went: its end is not the answer; the status after it is', async () => {
    const f = await fakeService([
      { state: { status: 'UPDATING', statusUpdated: 1 } },
      { state: { status: 'UPDATED', statusUpdated: 2 }, polls: 3 },
      { state: { status: 'AUTHENTICATING', statusUpdated: 3 } },
      { state: { status: 'UPDATED', statusUpdated: 4 } },
    ]);
    const r = await walk(f);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).statusUpdated).toBe(4);
    const g = await fakeService([
      { state: { status: 'UPDATING', statusUpdated: 1 } },
      { state: { status: 'UPDATED', statusUpdated: 2 } },
    ]);
    const r2 = await runCli(
      ['credentials', 'refresh', 'c1', '--wait', '--poll-interval', '10', '--wait-timeout', '1'],
      { env: env(g) },
    );
    expect(r2.code).toBe(9);
    expect(r2.stdout).toBe('');
    expect(r2.stderr).toMatch(/did not reach a final status within 1 s \(last status UPDATED\)/);
    expect(r2.stderr).toMatch(
      /a round was running when the request was sent, and UPDATED may be its end or this request's: `bankctl credentials get c1`/,
    );
  });

  test('an unknown status that never ends: polling goes on, with backoff, until --wait-timeout (exit 9)', async () => {
    const f = await fakeService([{ state: { status: 'QUEUED_AT_BANK', statusUpdated: 1 } }]);
    const started = Date.now();
    const r = await runCli(['credentials', 'refresh', 'c1', '--wait', '--poll-interval', '10', '--wait-timeout', '1'], {
      env: env(f),
    });
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(/did not reach a final status within 1 s \(last status QUEUED_AT_BANK\)/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    // backoff: 10 ms growing by half each poll, so far fewer than 100 polls in a second
    expect(f.gets).toBeGreaterThan(3);
    expect(f.gets).toBeLessThan(20);
  });

  test('a bad --answer is refused before anything is sent (exit 2, the patternError), an unknown shape is reported', async () => {
    const f = await fakeService([
      {
        state: {
          status: 'AWAITING_SUPPLEMENTAL_INFORMATION',
          statusUpdated: 1,
          supplementalInformation: [
            {
              name: 'ssn',
              description: 'Personal number',
              pattern: '(19|20)[0-9]{10}',
              patternError: 'Enter 12 digits.',
            },
          ],
        },
        await: true,
      },
    ]);
    const r = await walk(f, ['--answer', 'ssn=12345']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: --answer ssn: Enter 12 digits\./);
    expect(f.posts).toEqual([]);
    const g = await fakeService([
      { state: { status: 'AWAITING_SUPPLEMENTAL_INFORMATION', statusUpdated: 1, supplementalInformation: 42 } },
    ]);
    const r2 = await runCli(
      ['credentials', 'refresh', 'c1', '--wait', '--poll-interval', '10', '--wait-timeout', '1'],
      { env: env(g) },
    );
    expect(r2.code).toBe(9);
    expect(r2.stderr).toMatch(/shape this client does not know/);
  });

  test('an answer that comes after the round timed out: the status the credentials moved on to, exit 9, not the 400', async () => {
    const f = await fakeService([
      {
        state: {
          status: 'AWAITING_SUPPLEMENTAL_INFORMATION',
          statusUpdated: 1,
          supplementalInformation: JSON.stringify([{ name: 'code', description: 'Code' }]),
        },
        polls: 2, // the read before the refresh and the walk's first; the answer then finds the round over
      },
      {
        state: {
          status: 'AUTHENTICATION_ERROR',
          statusUpdated: 2,
          statusPayload: 'No supplemental information arrived in time.',
        },
      },
    ]);
    const r = await walk(f, ['--answer', 'code=1234']);
    expect(r.code, r.stderr).toBe(9);
    expect(r.stderr).toMatch(/the answer came too late: the bank no longer waits for it \(now AUTHENTICATION_ERROR\)/);
    expect(r.stderr).toMatch(/ended in AUTHENTICATION_ERROR: No supplemental information arrived in time\./);
    expect(r.stderr).not.toMatch(/HTTP 400/);
  });

  test('the eID wait without a terminal does not ask to scan a code it does not draw; with --qr it draws it', async () => {
    const eid = () =>
      fakeService([
        {
          state: {
            status: 'AWAITING_MOBILE_BANKID_AUTHENTICATION',
            statusUpdated: 1,
            supplementalInformation: '8f3d3b9e-6c61-4a8f-9d3c-0b5a1c2d3e4f',
          },
          polls: 2,
        },
        { state: { status: 'UPDATED', statusUpdated: 2 } },
      ]);
    const plain = await walk(await eid());
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toContain('Open your mobile eID app to log in:');
    expect(plain.stderr).not.toMatch(/scan this code|[▀▄█]/);
    const drawn = await walk(await eid(), ['--qr']);
    expect(drawn.code, drawn.stderr).toBe(0);
    expect(drawn.stderr).toContain('Open your mobile eID app to log in, or scan this code with it:');
    expect(drawn.stderr).toMatch(/[▀▄█]{10}/);
  });

  test('Ctrl-C while polling ends with 130 and says where the credentials were left', async () => {
    const f = await fakeService([{ state: { status: 'AUTHENTICATING', statusUpdated: 1 } }]);
    const io = testIO({ env: env(f) });
    const p = run(['credentials', 'refresh', 'c1', '--wait', '--poll-interval', '50'], io);
    // 1.5 s, not 300 ms: on a loaded CI machine the first status had not been read by then
    await new Promise((r) => setTimeout(r, 1_500));
    io.interrupt();
    expect(await p).toBe(130);
    expect(io.err()).toMatch(/interrupted; credentials c1 were left in status AUTHENTICATING/);
  });
});

test.each([
  [
    'credentials refresh --wait',
    ['refresh', 'c1', '--wait'],
    /interrupted; credentials c1 were left in status AUTHENTICATING/,
  ],
  ['credentials watch', ['watch', 'c1'], /stopped watching c1/],
])(
  '%s: Ctrl-C while the service does not answer a poll ends at once with 130, not after every retry',
  async (_name, argv, said) => {
    // the reads answer until `hang`; from then on none does
    let hang = false;
    let hanging = 0;
    const service = await scriptedServer(() => (req, res, body) => {
      if (req.method === 'POST') return reply(204)(req, res, body);
      if (hang) {
        hanging++;
        return never(req, res, body);
      }
      reply(200, JSON.stringify({ id: 'c1', providerName: 'p', status: 'AUTHENTICATING', statusUpdated: 1 }))(
        req,
        res,
        body,
      );
    });
    const until = async (ok: () => boolean) => {
      const deadline = Date.now() + 5000;
      while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(ok()).toBe(true);
    };
    try {
      const io = testIO({
        env: { BANKCTL_BASE_URL: service.url, BANKCTL_TOKEN: 'test-token-123456', BANKCTL_CONFIG_DIR: tempDir() },
      });
      const p = run(['credentials', ...argv, '--poll-interval', '50', '--timeout', '20', '--retries', '2'], io);
      await until(() => io.err().includes('AUTHENTICATING') || io.out().includes('AUTHENTICATING'));
      hang = true;
      await until(() => hanging === 1); // a poll is in flight, unanswered
      const interrupted = Date.now();
      io.interrupt();
      const code = await Promise.race([p, new Promise((r) => setTimeout(() => r('still running'), 3000))]);
      expect(code).toBe(130);
      expect(Date.now() - interrupted).toBeLessThan(3000);
      expect(io.err()).toMatch(said);
      expect(io.err()).not.toMatch(/timed out|retrying/);
    } finally {
      await service.close();
    }
  },
  90_000,
);

/** A supplemental round that waits for its answers, the card reader's challenge first. */
const CHALLENGE = { name: 'challenge', description: 'Challenge', value: '4711', immutable: true };
const round = (statusUpdated: number, fields: unknown[]): Step => ({
  state: {
    status: 'AWAITING_SUPPLEMENTAL_INFORMATION',
    statusUpdated,
    supplementalInformation: JSON.stringify(fields),
  },
  await: true,
});

describe('walker: prompts on a terminal (scripted prompter)', () => {
  test('every field kind: immutable shown, helpText and hint, pattern rejected with patternError then accepted, masked as a password, optional skipped, checkboxes as one checklist', async () => {
    const f = await fakeService([
      round(1, [
        CHALLENGE,
        {
          name: 'code',
          description: 'Response code',
          helpText: 'From your card reader.',
          hint: '12345678',
          numeric: true,
          minLength: 8,
          maxLength: 8,
          pattern: '[0-9]{8}',
          patternError: 'Eight digits, please.',
        },
        { name: 'pin', description: 'PIN', masked: true, minLength: 4 },
        { name: 'nickname', description: 'Nickname', optional: true },
      ]),
      {
        state: {
          status: 'AWAITING_SUPPLEMENTAL_INFORMATION',
          statusUpdated: 2,
          supplementalInformation: JSON.stringify([
            {
              name: 'acc1',
              description: 'Everyday',
              checkbox: true,
              pattern: 'true/false',
              value: 'true',
              additionalInfo: JSON.stringify({
                accountName: 'Everyday',
                accountType: 'CHECKING',
                balance: '100.50',
                currencyCode: 'SEK',
                iban: 'SE00',
              }),
            },
            {
              name: 'acc2',
              description: 'Savings',
              checkbox: true,
              pattern: 'true/false',
              value: 'false',
              additionalInfo: JSON.stringify({
                accountName: 'Savings',
                accountType: 'SAVINGS',
                balance: '5.00',
                currencyCode: 'SEK',
              }),
            },
            {
              name: 'acc3',
              description: 'ISK',
              checkbox: true,
              pattern: 'true/false',
              value: 'false',
              additionalInfo: JSON.stringify({
                accountName: 'ISK',
                accountType: 'INVESTMENT',
                balance: '7.25',
                currencyCode: 'SEK',
                portfolioTypes: ['ISK'],
              }),
            },
          ]),
        },
        await: true,
      },
      { state: { status: 'UPDATED', statusUpdated: 3 } },
    ]);
    const prompter = new ScriptedPrompter(['1234', '87654321', '9999', '', ['Savings', 'ISK']]);
    const r = await onTerminal(f, prompter);
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked.map((a) => [a.kind, a.message])).toEqual([
      ['input', 'Response code'],
      ['input', 'Response code'],
      ['password', 'PIN'],
      ['input', 'Nickname (optional)'],
      ['checkbox', 'Choose the accounts to share'],
    ]);
    expect(prompter.rejected).toEqual(['Eight digits, please.']);
    expect(prompter.asked[4]!.choices).toEqual([
      'Everyday (CHECKING) 100.50 SEK SE00',
      'Savings (SAVINGS) 5.00 SEK',
      'ISK (INVESTMENT) 7.25 SEK [ISK]',
    ]);
    expect(r.stderr).toContain('Challenge: 4711');
    expect(r.stderr).toContain('From your card reader. e.g. 12345678');
    expect(f.posts).toEqual([
      { information: { challenge: '4711', code: '87654321', pin: '9999' } },
      { information: { acc1: 'false', acc2: 'true', acc3: 'true' } },
    ]);
    expect(r.stderr).not.toContain('9999');
  });

  test("a field with the reference's selectOptions is a menu of their texts, starting on the preselected value; its value is sent", async () => {
    // the reference's Field: selectOptions [{iconUrl, text, value}], inside the serialized string
    const method = {
      name: 'method',
      description: 'How do you want to confirm?',
      value: 'app',
      selectOptions: [
        { iconUrl: 'https://example.test/sms.png', text: 'SMS code', value: 'sms' },
        { iconUrl: 'https://example.test/app.png', text: "The bank's app", value: 'app' },
        { text: 'no value: cannot be answered' },
      ],
    };
    const branch = {
      name: 'branch',
      description: 'Branch',
      optional: true,
      selectOptions: [{ text: 'North', value: 'N' }, { value: 'S' }],
    };
    const f = await fakeService([round(1, [method, branch]), { state: { status: 'UPDATED', statusUpdated: 2 } }]);
    const prompter = new ScriptedPrompter(['sms', '']);
    const r = await onTerminal(f, prompter);
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked).toEqual([
      { kind: 'select', message: 'How do you want to confirm?', choices: ['SMS code', "The bank's app"] },
      { kind: 'select', message: 'Branch (optional)', choices: ['North', 'S', '(none)'] },
    ]);
    // Enter on the optional menu takes the first choice: it had no preselection
    expect(f.posts).toEqual([{ information: { method: 'sms', branch: 'N' } }]);

    // Enter on a menu with a preselection sends that value
    const g = await fakeService([round(1, [method]), { state: { status: 'UPDATED', statusUpdated: 2 } }]);
    const enter = new ScriptedPrompter(['']);
    const r2 = await onTerminal(g, enter);
    expect(r2.code, r2.stderr).toBe(0);
    expect(g.posts).toEqual([{ information: { method: 'app' } }]);
  });

  test('without a terminal a menu field takes one of its values: another is exit 2 naming them, nothing sent', async () => {
    const method = {
      name: 'method',
      description: 'Confirm with',
      selectOptions: [
        { text: 'SMS code', value: 'sms' },
        { text: 'Card reader', value: 'reader' },
      ],
    };
    const f = await fakeService([round(1, [method])]);
    const bad = await walk(f, ['--answer', 'method=SMS code']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'error: --answer method: Confirm with: answer one of sms (SMS code), reader (Card reader)',
    );
    const none = await walk(f);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      'no value for the supplemental field "method" (Confirm with: one of sms (SMS code), reader (Card reader))',
    );
    expect(none.stderr).toContain('bankctl credentials supplement c1 --answer method={sms|reader}');
    expect(f.posts).toEqual([]);
    const g = await fakeService([round(1, [method]), { state: { status: 'UPDATED', statusUpdated: 2 } }]);
    const ok = await walk(g, ['--answer', 'method=reader']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(g.posts).toEqual([{ information: { method: 'reader' } }]);
  });

  test("a line break in the bank's texts (LF, CR, U+2028, U+2029) never draws a line of its own: a question, a help text, an instruction, a status payload, a menu choice", async () => {
    const FAKE = 'Card\n? Password\r\u2028? PIN\u2029end';
    const f = await fakeService([
      {
        state: {
          status: 'AUTHENTICATING',
          statusUpdated: 1,
          statusPayload: 'Working\n2026-11-30 UPDATED\u2028done',
        },
        polls: 3,
      },
      round(2, [
        {
          name: 'challenge',
          description: 'Challenge',
          helpText: `Use the reader.\n${FAKE}`,
          value: '4711',
          immutable: true,
        },
        { name: 'code', description: FAKE, helpText: FAKE, hint: '1\n? 2' },
        { name: 'method', description: FAKE, selectOptions: [{ text: FAKE, value: 'sms' }] },
      ]),
      { state: { status: 'UPDATED', statusUpdated: 3 } },
    ]);
    const prompter = new ScriptedPrompter(['87654321', 'sms']);
    const r = await onTerminal(f, prompter);
    expect(r.code, r.stderr).toBe(0);
    const one = 'Card ? Password  ? PIN end';
    expect(prompter.asked).toEqual([
      { kind: 'input', message: one },
      { kind: 'select', message: one, choices: [one] },
    ]);
    // what was written to the person: every line of it one of bankctl's own, the bank's text within one
    const lines = r.stderr.split('\n');
    expect(lines).toContain(`Use the reader. ${one}`);
    expect(lines).toContain(`${one} e.g. 1 ? 2`);
    expect(lines.some((l) => l.includes('Working 2026-11-30 UPDATED done'))).toBe(true);
    expect(lines.some((l) => /^\s*\? (Password|PIN|2)/.test(l) || l.startsWith('2026-11-30'))).toBe(false);
    expect(r.stderr).not.toMatch(/[\r\u2028\u2029]/);
    expect(f.posts).toEqual([{ information: { challenge: '4711', code: '87654321', method: 'sms' } }]);
  });

  test('stdin a terminal, stdout a pipe (`... | jq`): nothing is asked, and the hint says why and how to answer', async () => {
    const f = await fakeService([round(1, [{ name: 'code', description: 'Response code' }])]);
    const r = await walk(f, [], { stdinIsTTY: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no value for the supplemental field "code" (Response code) and no terminal to ask on');
    expect(r.stderr).toContain(
      'stdout is a pipe or a file, not a terminal, and bankctl asks only when stdin and stdout both are terminals; credentials c1 wait for it: `bankctl credentials supplement c1 --answer code=VALUE`',
    );
    // a script (no terminal anywhere) is not told about stdout
    const script = await walk(await fakeService([round(1, [{ name: 'code', description: 'Response code' }])]));
    expect(script.code).toBe(2);
    expect(script.stderr).not.toContain('not a terminal');
    expect(f.posts).toEqual([]);
  });

  test('-q still shows a challenge to someone about to be asked for its answer', async () => {
    const f = await fakeService([
      round(1, [CHALLENGE, { name: 'code', description: 'Response code' }]),
      { state: { status: 'UPDATED', statusUpdated: 2 } },
    ]);
    const prompter = new ScriptedPrompter(['87654321']);
    const r = await onTerminal(f, prompter, ['-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked.map((a) => a.message)).toEqual(['Response code']);
    expect(r.stderr).toContain('Challenge: 4711');
    expect(f.posts).toEqual([{ information: { challenge: '4711', code: '87654321' } }]);
  });
});
