// The zsh completion as `bankctl completion --help` installs it: the file on $fpath as _bankctl,
// loaded by compinit, driven through a real interactive zsh in a pseudo-terminal (a private tmux
// server). The first Tab of a shell must complete (it only defined the functions before), and an
// option's values are its own command's. Sourced into a zsh without compinit, it loads compinit.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { BIN, ROOT, tempDir } from '../helpers/cli.js';
import { requires } from '../helpers/requires.js';
import { waitForScreen } from '../helpers/screen.js';

const needs = requires({ tools: ['tmux', 'zsh'] });
let home = '';
let socket = '';
let windows = 0;
const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });

beforeAll(() => {
  if (needs.reason) return;
  home = tempDir('bankctl-zsh-');
  socket = join(home, 'tmux.sock');
  // `bankctl` on PATH, the completion on $fpath, compinit in .zshrc: a user's set-up
  mkdirSync(join(home, 'bin'));
  mkdirSync(join(home, 'functions'));
  writeFileSync(join(home, 'bin', 'bankctl'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(home, 'bin', 'bankctl'), 0o755);
  copyFileSync(join(ROOT, 'completions', '_bankctl'), join(home, 'functions', '_bankctl'));
  writeFileSync(
    join(home, '.zshrc'),
    `fpath=(${join(home, 'functions')} $fpath)\nautoload -U compinit && compinit -u\nPS1='%% '\n`,
  );
});
afterAll(() => {
  if (needs.reason) return;
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
});

/** A new interactive zsh in its own window; its name. */
function shell(): string {
  const name = `z${windows++}`;
  const cmd = `env -i HOME=${home} ZDOTDIR=${home} PATH=${join(home, 'bin')}:/usr/bin:/bin TERM=xterm BANKCTL_CONFIG_DIR=${join(home, 'cfg')} zsh -i`;
  if (windows === 1) tmux('new-session', '-d', '-s', name, '-x', '160', '-y', '30', cmd);
  else tmux('new-window', '-d', '-n', name, cmd);
  return name;
}

const waitFor = (name: string, re: RegExp, timeoutMs = 15_000): Promise<string> =>
  waitForScreen(() => tmux('capture-pane', '-p', '-t', name), re, timeoutMs);

needs.describe('zsh completion from $fpath', () => {
  needs.test(
    'the first Tab of a new shell completes the word',
    async () => {
      const w = shell();
      await waitFor(w, /^%\s*$/m);
      tmux('send-keys', '-t', w, 'bankctl cred', 'Tab');
      await waitFor(w, /^% bankctl credentials\s*$/m);
    },
    30_000,
  );

  needs.test(
    "an option completes to its own command's values",
    async () => {
      const w = shell();
      await waitFor(w, /^%\s*$/m);
      tmux('send-keys', '-t', w, 'bankctl connector push --type ', 'Tab');
      const screen = await waitFor(w, /HISTORICAL/);
      expect(screen).toMatch(/REAL_TIME/);
      expect(screen).not.toMatch(/expenses-by-category/);
    },
    30_000,
  );

  needs.test('sourced into a zsh without compinit, it registers itself (no "command not found: compdef")', () => {
    const out = execFileSync(
      'zsh',
      ['-f', '-i', '-c', `source ${join(ROOT, 'completions', '_bankctl')}; print -r -- "comp=\${_comps[bankctl]}"`],
      { encoding: 'utf8', env: { HOME: home, PATH: '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(out).toContain('comp=_bash_complete -o default -F _bankctl');
  });
});
