// The real inquirer prompts, the spinner and the terminal QR code, driven through a pseudo-terminal:
// bin/bankctl.js runs inside a private tmux server; the test types keys and reads the screen.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { join } from 'node:path';
import { BIN, tempDir } from '../helpers/cli.js';
import { startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { requires } from '../helpers/requires.js';
import { reply, scriptedServer } from '../helpers/scripted-server.js';

const needs = requires({ tools: ['tmux'] });
const hasTmux = !needs.reason;
// a private server on a socket in a temporary directory (removed with it after the file)
let socket = '';
const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });

let t: TestEnv;
let user: string;
beforeAll(async () => {
  if (!hasTmux) return;
  socket = join(tempDir('bankctl-tmux-'), 'sock');
  // long enough for the eID wait to be on screen while the test looks
  t = await startTestSandbox({ authDelayMs: 1500 });
  user = (await userWithToken(t.sandbox, ['credentials:read'])).userId;
});
afterAll(async () => {
  if (!hasTmux) return;
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
  await t.close();
});

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Starts the CLI in a new tmux window of 120x60 (or `width` columns); the shell prints EXIT=<code> when it ends. */
function start(
  name: string,
  args: string[],
  service: Record<string, string> = t.env,
  width = 120,
  noColorEnv = true,
): void {
  const env = Object.entries({ ...service, TERM: 'xterm-256color', ...(noColorEnv ? { NO_COLOR: '1' } : {}) })
    .map(([k, v]) => `${k}=${shellQuote(v)}`)
    .join(' ');
  const cmd = `env -i PATH=${shellQuote(process.env.PATH ?? '')} HOME=${shellQuote(process.env.HOME ?? '/tmp')} ${env} ${shellQuote(process.execPath)} ${shellQuote(BIN)} ${args.map(shellQuote).join(' ')}; echo EXIT=$?; sleep 60`;
  tmux('new-session', '-d', '-s', name, '-x', String(width), '-y', '60', cmd);
}

// -J joins lines the terminal wrapped
const screen = (name: string) => tmux('capture-pane', '-p', '-J', '-t', name, '-S', '-200');
const keys = (name: string, ...k: string[]) => tmux('send-keys', '-t', name, ...k);

async function waitFor(name: string, pred: (s: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const s = screen(name);
    if (pred(s)) return s;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}; the screen shows:\n${s}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

needs.describe('credentials connect on a terminal', () => {
  test('the provider picker, the credentials prompts and every kind of supplemental prompt, as a person sees them', async () => {
    start('picker', [
      'credentials',
      'connect',
      '--user',
      user,
      '--market',
      'SE',
      '--include-test',
      '--poll-interval',
      '100',
    ]);
    let s = await waitFor(
      'picker',
      (x) => x.includes('Provider in SE (type to search)') && x.includes('[test]'),
      'the provider picker',
    );
    expect(s).toMatch(/se-test-open-banking-embedded/);
    keys('picker', 'multi-sup');
    await waitFor(
      'picker',
      (x) =>
        x.includes('❯ Test Multi-Supplemental (se-test-other-multi-supplemental)') &&
        !x.includes('se-test-other-password'),
      'the search to narrow the list',
    );
    keys('picker', 'Enter');
    await waitFor('picker', (x) => /\? Username/.test(x), 'the username prompt');
    keys('picker', 'test-user', 'Enter');
    s = await waitFor('picker', (x) => /\? First code/.test(x), 'the first code');
    expect(s).toContain('Challenge: 4711'); // an immutable value, shown
    expect(s).toMatch(/4 to 8 digits.*e\.g\. 1234/); // helpText and hint
    keys('picker', '12', 'Enter');
    await waitFor('picker', (x) => x.includes('The code is 4 to 8 digits.'), 'the patternError');
    keys('picker', 'BSpace', 'BSpace', '4321', 'Enter');
    await waitFor('picker', (x) => /\? Second code/.test(x), 'the second round');
    keys('picker', '8765');
    await waitFor('picker', (x) => /\? Second code \*\*\*\*/.test(x), 'the masked echo');
    keys('picker', 'Enter');
    await waitFor('picker', (x) => /\? Name this device \(optional\)/.test(x), 'the optional field');
    keys('picker', 'Enter');
    s = await waitFor('picker', (x) => x.includes('EXIT='), 'the end');
    expect(s).toContain('EXIT=0');
    expect(s).toMatch(/status\s+UPDATED/); // the final credentials as a table: stdout is a terminal
    expect(s).not.toContain('8765'); // the masked code never echoed
    expect(s).not.toMatch(/\(optional\) \(optional\)/);
  });

  test("a field with the reference's selectOptions as a menu starting on the preselected choice; arrows move, Enter sends its value", async () => {
    // the real service's shape (no sandbox provider asks a choice): a serialized field list
    const field = {
      name: 'method',
      description: 'Confirm with',
      value: 'app',
      selectOptions: [
        { text: 'SMS code', value: 'sms', iconUrl: 'https://example.test/sms.png' },
        { text: "The bank's app", value: 'app' },
        { text: 'Card reader', value: 'reader' },
      ],
    };
    let answered = false;
    const service = await scriptedServer(() => (req, res, body) => {
      if (req.method === 'POST' && req.url === '/api/v1/credentials/c1/supplemental-information') {
        answered = JSON.parse(body).information.method !== undefined;
        return reply(204)(req, res, body);
      }
      if (req.method === 'POST') return reply(204)(req, res, body);
      const state = answered
        ? { status: 'UPDATED', statusUpdated: 2 }
        : {
            status: 'AWAITING_SUPPLEMENTAL_INFORMATION',
            statusUpdated: 1,
            supplementalInformation: JSON.stringify([field]),
          };
      reply(200, JSON.stringify({ id: 'c1', providerName: 'fake-bank', userId: 'u1', ...state }))(req, res, body);
    });
    try {
      const env = { BANKCTL_BASE_URL: service.url, BANKCTL_TOKEN: 'test-token-123456', BANKCTL_CONFIG_DIR: tempDir() };
      start('choice', ['credentials', 'refresh', 'c1', '--wait', '--poll-interval', '100'], env);
      const s = await waitFor('choice', (x) => x.includes('? Confirm with'), 'the menu');
      expect(s).toMatch(/❯ The bank's app/); // the preselected choice under the cursor
      expect(s).toContain('SMS code');
      expect(s).toContain('Card reader');
      keys('choice', 'Down');
      await waitFor('choice', (x) => /❯ Card reader/.test(x), 'the cursor on the next choice');
      keys('choice', 'Enter');
      const end = await waitFor('choice', (x) => x.includes('EXIT='), 'the end');
      expect(end).toContain('EXIT=0');
      const posted = service.seen
        .filter((r) => r.url.endsWith('/supplemental-information'))
        .map((r) => JSON.parse(r.body));
      expect(posted).toEqual([{ information: { method: 'reader' } }]);
    } finally {
      await service.close();
    }
  });

  test('the eID deep link and its QR code on screen while the app is awaited; exit 0', async () => {
    start('eid', [
      'credentials',
      'connect',
      '--user',
      user,
      '--provider',
      'se-test-other-eid-successful',
      '--field',
      'username=test-user',
      '--poll-interval',
      '100',
      '-o',
      'json',
    ]);
    // qrcode-terminal's small mode draws with half blocks: a square of lines made of ▀ ▄ █ and spaces
    const qrLines = (x: string) => x.split('\n').filter((l) => /^[ ▀▄█]{20,}$/.test(l.trimEnd()) && /[▀▄█]/.test(l));
    const s = await waitFor(
      'eid',
      (x) => x.includes('eID link: bankid:///?autostarttoken=') && qrLines(x).length > 10,
      'the eID link and its QR code',
    );
    const token = /autostarttoken=([0-9a-f-]{36})&redirect=null/.exec(s)?.[1];
    expect(token).toBeDefined();
    const square = qrLines(s);
    expect(new Set(square.map((l) => l.trimEnd().length)).size).toBe(1); // every row as wide as the others
    expect(s).not.toContain('EXIT=');
    const end = await waitFor('eid', (x) => x.includes('EXIT='), 'the end');
    expect(end).toContain('EXIT=0');
    expect(end).toContain('"status": "UPDATED"');
  });

  test('a QR code wider than the terminal is not drawn (it would wrap into stripes): a line says so and where to get it', async () => {
    // a return URL makes the deep link long: its code is wider than 40 columns
    const qrUser = (await userWithToken(t.sandbox, ['credentials:read'])).userId;
    start(
      'narrowqr',
      [
        'credentials',
        'connect',
        '--user',
        qrUser,
        '--provider',
        'se-test-eid-successful',
        '--field',
        'username=test-user',
        '--return-url',
        'https://example.com/a/very/long/return/path/that/goes/on/and/on?state=abcdef0123456789',
        '--poll-interval',
        '100',
        '-o',
        'json',
      ],
      t.env,
      40,
    );
    const s = await waitFor('narrowqr', (x) => x.includes('EXIT='), 'the end');
    expect(s).toContain('EXIT=0');
    // without -J: the screen's own rows, none of them a wrapped piece of a code
    const rows = tmux('capture-pane', '-p', '-t', 'narrowqr', '-S', '-200').split('\n');
    expect(rows.filter((l) => /[▀▄█]{3}/.test(l))).toEqual([]);
    expect(s).toMatch(
      /the QR code is \d+ columns wide and this terminal 40: widen it to see the code, or get it as a picture: `bankctl credentials qr --user \w+ \w+ -O qr\.png`/,
    );
  });

  test('no colour at all with NO_COLOR (the spinner too) or --no-color (the prompts too); colour without them', async () => {
    // with -e the screen keeps its attributes as escape sequences: none where there is no colour
    const colours = (name: string) => tmux('capture-pane', '-p', '-e', '-t', name).match(/\x1b\[[0-9;]*m/g) ?? [];
    const colourUser = (await userWithToken(t.sandbox, ['credentials:read'])).userId;
    const spinning = [
      'credentials',
      'connect',
      '--user',
      colourUser,
      '--provider',
      'se-test-open-banking-decoupled-successful',
      '--field',
      'username=test-user',
      '-o',
      'json',
    ];
    start('nocolour-spin', spinning);
    // any status the spinner shows: on a loaded machine a poll can miss AUTHENTICATING (1.5 s here)
    await waitFor('nocolour-spin', (x) => /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] \w/m.test(x), 'the spinner');
    expect(colours('nocolour-spin')).toEqual([]);
    start(
      'nocolour-flag',
      ['--no-color', 'credentials', 'connect', '--user', colourUser, '--provider', 'se-test-password'],
      t.env,
      120,
      false,
    );
    await waitFor('nocolour-flag', (x) => /\? Username/.test(x), 'the username prompt');
    expect(colours('nocolour-flag')).toEqual([]);
    keys('nocolour-flag', 'C-c');
    // the same prompt without either: coloured, so the checks above can see colour
    start(
      'colour',
      ['credentials', 'connect', '--user', colourUser, '--provider', 'se-test-password'],
      t.env,
      120,
      false,
    );
    await waitFor('colour', (x) => /\? Username/.test(x), 'the username prompt');
    expect(colours('colour').length).toBeGreaterThan(0);
    keys('colour', 'C-c');
    expect(await waitFor('nocolour-spin', (x) => x.includes('EXIT='), 'the end')).toContain('EXIT=0');
  });

  test('the opt-in checklist: each account with type, balance and IBAN; only the ticked accounts are fetched', async () => {
    const optUser = (await userWithToken(t.sandbox, ['credentials:read'])).userId;
    start('optin', [
      'credentials',
      'connect',
      '--user',
      optUser,
      '--provider',
      'se-test-other-password',
      '--field',
      'username=test-user',
      '--opt-in',
      '--poll-interval',
      '100',
      '-o',
      'json',
    ]);
    await waitFor('optin', (x) => /\? Password/.test(x), 'the password prompt');
    keys('optin', 'test-password', 'Enter');
    const s = await waitFor(
      'optin',
      (x) => x.includes('Choose the accounts to share') && x.includes('Car Loan'),
      'the checklist',
    );
    expect(s).toMatch(/◯ Everyday Account \(CHECKING\) -?\d+\.\d{2} SEK SE\d{22}/);
    expect(s).toMatch(/Investment Savings Account \(INVESTMENT\) \d+\.\d{2} SEK SE\d{22} \[ISK\]/);
    expect(s).toMatch(/✔ Password \*{13}\n/); // typed, masked
    // tick the first (checking) and the second (savings)
    keys('optin', 'Space');
    keys('optin', 'Down');
    keys('optin', 'Space');
    await waitFor('optin', (x) => (x.match(/◉/g) ?? []).length === 2, 'two ticked accounts');
    keys('optin', 'Enter');
    const end = await waitFor('optin', (x) => x.includes('EXIT='), 'the end');
    expect(end).toContain('EXIT=0');
    const types = [...t.sandbox.store.accounts.values()]
      .filter((a) => a.userId === optUser)
      .map((a) => a.type)
      .sort();
    expect(types).toEqual(['CHECKING', 'SAVINGS']);
  });

  test('the third-party app payload as links and a QR code of the deep link', async () => {
    start('app', [
      'credentials',
      'connect',
      '--user',
      user,
      '--provider',
      'se-test-other-third-party-app-successful',
      '--field',
      'username=test-user',
      '--poll-interval',
      '100',
      '-o',
      'json',
    ]);
    const qrLines = (x: string) => x.split('\n').filter((l) => /^[ ▀▄█]{20,}$/.test(l.trimEnd()) && /[▀▄█]/.test(l));
    const s = await waitFor(
      'app',
      (x) => x.includes('Log in on this computer: ') && qrLines(x).length > 10,
      'the app links and QR code',
    );
    expect(s).toMatch(
      /iOS: http:\/\/127\.0\.0\.1:\d+\/sandbox\/test-bank\/authorize\?state=\S+ +\(App Store: https:\/\/apps\.apple\.com/,
    );
    expect(s).toMatch(/Android: \S+ +\(package com\.sandbox\.testbank, version 120 or later\)/);
    expect(s).toContain('You need the Test Bank app to log in.');
    expect(await waitFor('app', (x) => x.includes('EXIT='), 'the end')).toContain('EXIT=0');
  });

  test('a spinner with the status message while the person confirms in the bank app (decoupled); gone at the end', async () => {
    start('spin', [
      'credentials',
      'connect',
      '--user',
      user,
      '--provider',
      'se-test-open-banking-decoupled-successful',
      '--field',
      'username=test-user',
      '--poll-interval',
      '100',
      '-o',
      'json',
    ]);
    await waitFor(
      'spin',
      (x) => /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] authenticating: Open your bank's app on your phone and confirm the login\./.test(x),
      'the spinner',
    );
    const end = await waitFor('spin', (x) => x.includes('EXIT='), 'the end');
    expect(end).toContain('EXIT=0');
    expect(end).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
  });

  test('Ctrl-C at a prompt and Ctrl-C while waiting for the app both leave with 130', async () => {
    start('cc1', [
      'credentials',
      'connect',
      '--user',
      user,
      '--provider',
      'se-test-other-password',
      '--poll-interval',
      '100',
    ]);
    await waitFor('cc1', (x) => /\? Username/.test(x), 'the username prompt');
    keys('cc1', 'C-c');
    expect(await waitFor('cc1', (x) => x.includes('EXIT='), 'the end')).toContain('EXIT=130');
    start('cc2', [
      'credentials',
      'connect',
      '--user',
      user,
      '--provider',
      'se-test-eid-successful',
      '--field',
      'username=test-user',
      '--poll-interval',
      '100',
    ]);
    await waitFor('cc2', (x) => x.includes('eID link:'), 'the eID wait');
    keys('cc2', 'C-c');
    const s = await waitFor('cc2', (x) => x.includes('EXIT='), 'the end');
    expect(s).toContain('EXIT=130');
    expect(s).toMatch(/interrupted; credentials \w+ were left in status AWAITING_MOBILE_BANKID_AUTHENTICATION/);
    // at a prompt of a round, after the credentials exist: the same words, naming what was left behind
    start('cc3', [
      'credentials',
      'connect',
      '--user',
      user,
      '--provider',
      // not the picker test's provider: the same provider and fields would be a duplicate (409)
      'se-test-multi-supplemental',
      '--field',
      'username=test-user',
      '--poll-interval',
      '100',
    ]);
    await waitFor('cc3', (x) => /\? First code/.test(x), 'the first round');
    keys('cc3', 'C-c');
    const r = await waitFor('cc3', (x) => x.includes('EXIT='), 'the end');
    expect(r).toContain('EXIT=130');
    expect(r).toMatch(/interrupted; credentials (\w+) were left in status AWAITING_SUPPLEMENTAL_INFORMATION/);
    expect(r).toMatch(/bankctl credentials watch --user \w+ \w+/);
  });

  test('a SIGTERM or SIGINT sent to the process (kill, timeout) at a prompt of a round ends it too: 130, naming what was left', async () => {
    // Ctrl-C typed at a prompt is a key in raw mode; a signal reached only the walk, and the prompt
    // waited for a key for ever
    for (const [name, signal] of [
      ['sig1', 'SIGTERM'],
      ['sig2', 'SIGINT'],
    ] as const) {
      const u = (await userWithToken(t.sandbox, ['credentials:read'])).userId;
      start(name, [
        'credentials',
        'connect',
        '--user',
        u,
        '--provider',
        'se-test-multi-supplemental',
        '--field',
        'username=test-user',
        '--poll-interval',
        '100',
      ]);
      await waitFor(name, (x) => /\? First code/.test(x), 'the first round');
      const shell = tmux('list-panes', '-t', name, '-F', '#{pane_pid}').trim();
      // env execs node: the shell's only child
      const pid = Number(execFileSync('pgrep', ['-P', shell], { encoding: 'utf8' }).trim());
      process.kill(pid, signal);
      const r = await waitFor(name, (x) => x.includes('EXIT='), `the end after ${signal}`);
      expect(r).toContain('EXIT=130');
      expect(r).toMatch(/interrupted; credentials \w+ were left in status AWAITING_SUPPLEMENTAL_INFORMATION/);
    }
  });

  test('--field-stdin on a terminal asks with a masked prompt: the secret is never echoed, Enter sends it', async () => {
    start('fstdin', [
      'credentials',
      'create',
      '--user',
      user,
      '--provider',
      'se-test-password',
      '--field',
      'username=test-user',
      '--field-stdin',
      'password',
      '-o',
      'json',
    ]);
    await waitFor('fstdin', (x) => x.includes('password (--field-stdin password)'), 'the masked prompt');
    keys('fstdin', '-l', 'test-password');
    keys('fstdin', 'Enter');
    const s = await waitFor('fstdin', (x) => x.includes('EXIT='), 'the end');
    expect(s).toContain('EXIT=0');
    expect(s).toContain('"providerName": "se-test-password"');
    expect(s).toMatch(/password \(--field-stdin password\) \*{13}/);
    expect(s).not.toContain('test-password\n');
    expect(s.split('\n').filter((l) => l.includes('test-password') && !l.includes('se-test-password'))).toEqual([]);
  });
});
