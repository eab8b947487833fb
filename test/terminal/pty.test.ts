// Through a pseudo-terminal of 80 columns (a private tmux server): tables fit the screen, ids are
// shortened in the middle, --wide shows them whole, a pipe gets full values; destructive commands
// ask and show what they delete; protected profiles want their name typed.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { BIN, spawnCli, tempDir } from '../helpers/cli.js';
import { requires } from '../helpers/requires.js';
import { waitForScreen } from '../helpers/screen.js';
import { useSandbox } from '../helpers/commands.js';

const needs = requires({ tools: ['tmux'] });
const s = useSandbox({ months: 3 });
let socket = '';
let configDir = '';
const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });

beforeAll(() => {
  if (needs.reason) return;
  socket = join(tempDir('bankctl-tmux-'), 'sock');
  configDir = tempDir('bankctl-cfg-');
});
afterAll(() => {
  if (needs.reason) return;
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
});

const q = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
let n = 0;

/** Runs the CLI in a new 80x100 window; returns the window's name. */
function start(args: string[], env: Record<string, string> = {}, cols = 80): string {
  const name = `w${n++}`;
  const all = { ...s.env, BANKCTL_CONFIG_DIR: configDir, TERM: 'xterm-256color', NO_COLOR: '1', ...env };
  const envs = Object.entries(all)
    .map(([k, v]) => `${k}=${q(v)}`)
    .join(' ');
  const cmd = `env -i PATH=${q(process.env.PATH ?? '')} HOME=${q(process.env.HOME ?? '/tmp')} ${envs} ${q(process.execPath)} ${q(BIN)} ${args.map(q).join(' ')}; echo EXIT=$?; sleep 60`;
  if (n === 1) tmux('new-session', '-d', '-s', name, '-x', String(cols), '-y', '100', cmd);
  else tmux('new-window', '-d', '-n', name, cmd);
  if (n > 1) tmux('resize-window', '-t', name, '-x', String(cols), '-y', '100');
  return name;
}

const screen = (name: string) => tmux('capture-pane', '-p', '-t', name, '-S', '-200');

const waitFor = (name: string, re: RegExp, timeoutMs = 20_000): Promise<string> =>
  waitForScreen(() => screen(name), re, timeoutMs);

needs.describe('on a terminal of 80 columns', () => {
  needs.test(
    'transactions list fits: no line wraps, ids shortened in the middle, amounts whole',
    async () => {
      const w = start(['transactions', 'list', '--limit', '20']);
      const sc = await waitFor(w, /EXIT=\d+/);
      expect(sc).toContain('EXIT=0');
      const lines = sc.split('\n').filter((l) => /^\d{4}-\d{2}-\d{2}/.test(l));
      expect(lines).toHaveLength(20);
      for (const l of lines) {
        expect(l.length).toBeLessThanOrEqual(80);
        expect(l).toMatch(/-?\d+\.\d{2} SEK/);
        expect(l).toMatch(/[0-9a-f]+…[0-9a-f]+/);
      }
      expect(sc).toMatch(/^DATE\s+DESCRIPTION/m);
      expect(sc).not.toMatch(/[│┌]/);
    },
    40_000,
  );

  needs.test(
    '--wide shows the ids whole',
    async () => {
      const w = start(['transactions', 'list', '--limit', '3', '--wide'], {}, 200);
      const sc = await waitFor(w, /EXIT=\d+/);
      expect(sc).toMatch(/\b[0-9a-f]{32}\b/);
      expect(sc).not.toMatch(/[0-9a-f]+…[0-9a-f]+/);
    },
    40_000,
  );

  needs.test(
    'a pipe gets full values even with COLUMNS=80',
    async () => {
      const w = start(['transactions', 'list', '--limit', '3', '-o', 'table'], { COLUMNS: '80' });
      // the same command piped: run again through cat
      const sc0 = await waitFor(w, /EXIT=\d+/);
      expect(sc0).toContain('EXIT=0');
      // the in-process sandbox must keep serving: an asynchronous child
      const r = await spawnCli(['transactions', 'list', '--limit', '3', '-o', 'table'], {
        env: { ...s.env, BANKCTL_CONFIG_DIR: configDir, COLUMNS: '80' },
      });
      expect(r.stderr).toMatch(/^more transactions: stopped at --limit 3; use --all, or --page-token [\w-]+\n$/);
      expect(r.stdout).toMatch(/\b[0-9a-f]{32}\b/);
      expect(r.stdout).not.toContain('…');
    },
    40_000,
  );

  needs.test(
    'a long table goes through the pager (BANKCTL_PAGER), --no-pager skips it',
    async () => {
      const w = start(['transactions', 'list', '--limit', '150'], { BANKCTL_PAGER: "sed -e 's/^/PAGED /'" });
      const sc = await waitFor(w, /EXIT=\d+/);
      expect(sc).toMatch(/^PAGED \d{4}-\d{2}-\d{2}/m);
      const w2 = start(['transactions', 'list', '--limit', '150', '--no-pager'], {
        BANKCTL_PAGER: "sed -e 's/^/PAGED /'",
      });
      const sc2 = await waitFor(w2, /EXIT=\d+/);
      expect(sc2).not.toContain('PAGED');
    },
    40_000,
  );

  needs.test(
    'users delete asks, showing the user; "n" deletes nothing',
    async () => {
      const w = start(['users', 'delete']);
      const sc = await waitFor(w, /Continue\?/);
      expect(sc).toContain(`This will delete user ${s.userId}`);
      expect(sc).toMatch(/base URL: http:\/\/127\.0\.0\.1/);
      tmux('send-keys', '-t', w, 'n', 'Enter');
      const end = await waitFor(w, /EXIT=\d+/);
      expect(end).toContain('EXIT=2');
      expect(end).toMatch(/not confirmed: nothing was done/);
    },
    40_000,
  );
});
