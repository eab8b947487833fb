// Ctrl-C at the market picker and at the provider picker of `credentials connect`, on a real
// terminal (a private tmux server): exit 130, and no "unexpected" line.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';
import { requires } from '../helpers/requires.js';
import { startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';

const needs = requires({ tools: ['tmux'] });
let socket = '';
const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

let t: TestEnv;
let user = '';
beforeAll(async () => {
  if (needs.reason) return;
  socket = join(tempDir('bankctl-tmux-'), 'sock');
  t = await startTestSandbox();
  user = (await userWithToken(t.sandbox, ['credentials:read'])).userId;
});
afterAll(async () => {
  if (needs.reason) return;
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
  await t.close();
});

async function waitFor(name: string, re: RegExp, what: string): Promise<string> {
  const started = Date.now();
  for (;;) {
    const s = tmux('capture-pane', '-p', '-J', '-t', name, '-S', '-100');
    if (re.test(s)) return s;
    if (Date.now() - started > 15_000) throw new Error(`timed out waiting for ${what}; the screen shows:\n${s}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function start(name: string, args: string[]): void {
  const env = Object.entries({ ...t.env, TERM: 'xterm-256color', NO_COLOR: '1' })
    .map(([k, v]) => `${k}=${q(v)}`)
    .join(' ');
  const cmd = `env -i PATH=${q(process.env.PATH ?? '')} ${env} ${q(process.execPath)} ${q(BIN)} ${args.map(q).join(' ')}; echo EXIT=$?; sleep 60`;
  tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '40', cmd);
}

needs.describe('Ctrl-C at a picker', () => {
  test.each([
    ['market', [] as string[], /Market/],
    ['provider', ['--market', 'SE', '--include-test'], /Provider in SE/],
  ])('at the %s picker: exit 130, no "unexpected"', async (name, extra, prompt) => {
    start(name, ['credentials', 'connect', '--user', user, ...extra]);
    await waitFor(name, prompt, `the ${name} picker`);
    tmux('send-keys', '-t', name, 'C-c');
    const screen = await waitFor(name, /EXIT=\d+/, 'the exit');
    expect(screen).toContain('EXIT=130');
    expect(screen).not.toMatch(/unexpected/);
  });
});
