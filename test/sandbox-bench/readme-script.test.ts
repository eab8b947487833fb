// The README's "Use the sandbox from your own tests" script, run as written (bash, curl, jq, and a
// `bankctl` on PATH that is this build), against the README's own fixtures example.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import { BIN, ROOT, tempDir } from '../helpers/cli.js';
import { requires } from '../helpers/requires.js';
import { FIXTURES } from './helpers.js';

const needs = requires({ tools: ['bash', 'curl', 'jq'] });

/** The first ```sh block after a heading. */
function block(markdown: string, heading: string, lang: string): string {
  const at = markdown.indexOf(heading);
  expect(at, heading).toBeGreaterThan(0);
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(markdown.slice(at));
  return m![1]!;
}

needs.test(
  'the script of the README runs and says ok',
  () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const script = block(readme, '### Use the sandbox from your own tests', 'sh');
    // the README's fixtures example is the file the tests load
    expect(JSON.parse(block(readme, '#### Scenarios from a file', 'json'))).toEqual(
      JSON.parse(readFileSync(FIXTURES, 'utf8')),
    );
    const dir = tempDir();
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'bankctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'bankctl'), 0o755);
    writeFileSync(join(dir, 'run.sh'), script);
    const r = spawnSync('bash', [join(dir, 'run.sh')], {
      cwd: dir,
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME, TMPDIR: dir, FIXTURES },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('ok: 3 new transactions read back');
  },
  90_000,
);

needs.test(
  'the fault run of the README runs as written (but for the port) and delivers every transaction',
  () => {
    // the recipe pushed accounts.ndjson and transactions.ndjson without saying what they hold: a
    // partner copying it had no files to run it with
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const recipe = block(readme, 'Reproduce a fault run by hand', 'sh');
    expect(recipe).toContain('--port 8787');
    const dir = tempDir();
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'bankctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'bankctl'), 0o755);
    // 8787 may be taken on a test machine: any free port, and the sandbox stopped at the end
    writeFileSync(
      join(dir, 'run.sh'),
      `set -e\ntrap 'bankctl sandbox stop >/dev/null 2>&1' EXIT\n${recipe.replace('--port 8787', '--port 0')}`,
    );
    const r = spawnSync('bash', [join(dir, 'run.sh')], {
      cwd: dir,
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME, TMPDIR: dir, BANKCTL_CONFIG_DIR: dir },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stderr).toMatch(/1000 transaction\(s\) .*delivered 1000, duplicates 0, rejected 0/);
  },
  150_000,
);
