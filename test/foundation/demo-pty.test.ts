// `bankctl demo` on a real terminal (tmux): the provider picker, the credentials prompt and the eID
// QR code of the interactive path, then the rest of the walk.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';
import { requires } from '../helpers/requires.js';

const needs = requires({ tools: ['tmux'] });
const hasTmux = !needs.reason;
const socket = join(tempDir('bankctl-tmux-'), 'sock');
const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const screen = () => tmux('capture-pane', '-p', '-J', '-t', 'demo', '-S', '-400');

async function waitFor(pred: (s: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const s = screen();
    if (pred(s)) return s;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}; the screen shows:\n${s}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterAll(() => {
  if (!hasTmux) return;
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
});

needs.describe('bankctl demo on a terminal', () => {
  test('asks for a bank, its username, shows the eID QR code, and walks on to the end', async () => {
    const env = `env -i PATH=${q(process.env.PATH ?? '')} HOME=${q(process.env.HOME ?? '/tmp')} TERM=xterm-256color NO_COLOR=1 BANKCTL_CONFIG_DIR=${q(tempDir())}`;
    tmux(
      'new-session',
      '-d',
      '-s',
      'demo',
      '-x',
      '150',
      '-y',
      '80',
      `${env} ${q(process.execPath)} ${q(BIN)} demo --auth-delay 1500; echo EXIT=$?; sleep 60`,
    );
    await waitFor((s) => s.includes('Provider in SE (type to search)'), 'the provider picker');
    tmux('send-keys', '-t', 'demo', 'other-eid-succ');
    await waitFor(
      (s) =>
        s
          .slice(s.lastIndexOf('? Provider in SE'))
          .includes('❯ Test BankID (successful) (se-test-other-eid-successful)'),
      'the search to narrow the list',
    );
    tmux('send-keys', '-t', 'demo', 'Enter');
    await waitFor((s) => /\? Username/.test(s), 'the username prompt');
    tmux('send-keys', '-t', 'demo', 'test-user', 'Enter');
    const qr = await waitFor(
      (s) =>
        s.includes('bankid:///?autostarttoken=') &&
        s.split('\n').filter((l) => /^[ ▀▄█]{20,}$/.test(l.trimEnd()) && /[▀▄█]/.test(l)).length > 10,
      'the eID link and its QR code',
    );
    expect(qr).toMatch(/autostarttoken=[0-9a-f-]{36}/);
    const end = await waitFor((s) => s.includes('EXIT='), 'the end of the demo', 60_000);
    expect(end).toContain('EXIT=0');
    expect(end).toContain('That is the journey.');
    expect(end).toMatch(/Push 40 transactions/);
    expect(end).toMatch(/CHECKING/);
  }, 90_000);
});
