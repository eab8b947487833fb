// `[<noun> [<verb>]] --help` answered by bin/bankctl.js from the build's dist/help/ tables
// (src/fast-help.ts) must be exactly what the program prints, at any terminal width; anything
// the tables do not know (an alias, a typo, options before --help) goes to the program.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { fastHelp, helpPath } from '../../src/fast-help.js';
import { ROOT, runCli, spawnCli } from '../helpers/cli.js';

const HELP_DIR = join(ROOT, 'dist', 'help');
const tables = Object.fromEntries(
  readdirSync(HELP_DIR).map((f) => [f, JSON.parse(readFileSync(join(HELP_DIR, f), 'utf8')) as Record<string, string>]),
);
const load = (file: string) => tables[file];
const paths = Object.values(tables).flatMap((t) => Object.keys(t));

const stdout = process.stdout as { isTTY?: boolean; columns?: number };
const saved = { isTTY: stdout.isTTY, columns: stdout.columns };
afterEach(() => Object.assign(stdout, saved));

/** What the program prints for argv with stdout a terminal of `columns` (commander reads process.stdout). */
async function programHelp(argv: string[], columns: number | undefined): Promise<string> {
  Object.assign(stdout, columns === undefined ? { isTTY: false, columns: undefined } : { isTTY: true, columns });
  try {
    const r = await runCli(argv);
    expect(r.code).toBe(0);
    return r.stdout;
  } finally {
    Object.assign(stdout, saved);
  }
}

describe('the build-time help tables', () => {
  test('cover the root, every noun and their verbs', () => {
    expect(paths).toEqual(expect.arrayContaining(['', 'users', 'users create', 'connector push', 'sandbox start']));
    expect(paths.length).toBeGreaterThan(100);
  });

  test.each([undefined, 80, 120, 200, 60, 44, 30])(
    'render exactly what the program prints, every command, stdout %s columns wide',
    async (columns) => {
      const out = columns === undefined ? { isTTY: false } : { isTTY: true, columns };
      for (const path of paths) {
        const argv = [...path.split(' ').filter(Boolean), '--help'];
        expect(fastHelp(argv, load, out), path).toBe(await programHelp(argv, columns));
      }
    },
    120_000,
  );
});

describe('which command lines take the fast path', () => {
  test('only words then a final --help or -h', () => {
    expect(helpPath(['users', 'create', '--help'])).toEqual(['users', 'create']);
    expect(helpPath(['-h'])).toEqual([]);
    expect(helpPath(['users', '--help', 'create'])).toBeUndefined();
    expect(helpPath(['--profile', 'x', 'users', '--help'])).toBeUndefined();
    expect(helpPath(['users', 'create'])).toBeUndefined();
  });

  test('a path the tables do not know is left to the program', () => {
    expect(fastHelp(['users', 'craete', '--help'], load)).toBeUndefined();
    expect(fastHelp(['nosuch', '--help'], load)).toBeUndefined();
    expect(
      fastHelp(['users', '--help'], () => {
        throw new Error('no table');
      }),
    ).toBeUndefined();
  });
});

describe('bin/bankctl.js', () => {
  test('a leading --help names the command it is for, as `gh --help pr` does', async () => {
    const verb = await spawnCli(['users', 'create', '--help']);
    for (const flag of ['--help', '-h']) {
      const lead = await spawnCli([flag, 'users', 'create']);
      expect(lead).toMatchObject({ code: 0, stderr: '' });
      expect(lead.stdout).toBe(verb.stdout);
    }
    const noun = await spawnCli(['--help', 'users']);
    expect(noun.stdout).toBe((await spawnCli(['users', '--help'])).stdout);
    const unknown = await spawnCli(['--help', 'nope']);
    expect(unknown.code).toBe(2);
  });

  test('prints the same help as the program, and a misspelt verb still gets commander’s answer', async () => {
    const fast = await spawnCli(['connector', 'push', '--help']);
    expect(fast).toMatchObject({ code: 0, stderr: '' });
    expect(fast.stdout).toBe(await programHelp(['connector', 'push', '--help'], undefined));
    const typo = await spawnCli(['users', 'craete', '--help']);
    // commander's own handling of an unknown verb, not a fast-path answer
    const inProcess = await runCli(['users', 'craete', '--help']);
    expect(typo).toMatchObject({ code: inProcess.code, stdout: inProcess.stdout, stderr: inProcess.stderr });
  });

  test('help into a closed pipe stops quietly', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(`"${process.execPath}" "${join(ROOT, 'bin', 'bankctl.js')}" --help | head -c 1`, {
      shell: '/bin/sh',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    const code = await new Promise((r) => child.on('close', r));
    expect(code).toBe(0);
    expect(err).toBe('');
  });
});
