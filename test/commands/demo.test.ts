import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import type { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { newCmdDemo, type DemoOptions } from '../../src/commands/demo.js';
import type { Run } from '../../src/commands/util.js';
import { BIN, tempDir } from '../helpers/cli.js';
import { cliCases, optionCases } from '../helpers/commands.js';

const runCommandLine = async () => 0;
const newCmd = (demo: Command, ctx: Context, run: Run<DemoOptions>) => newCmdDemo(demo, ctx, { runCommandLine }, run);

describe('demo: flags', () => {
  optionCases('demo', newCmd, [
    {
      name: 'without a terminal: never interactive',
      args: [],
      options: { authDelayMs: 600, interactive: false, runCommandLine },
    },
    {
      name: 'a shorter bank wait',
      args: ['--auth-delay', '20', '--no-interactive'],
      options: { authDelayMs: 20, interactive: false },
    },
    {
      name: 'an auth delay that is not a number',
      args: ['--auth-delay', 'fast'],
      code: 2,
      stderr: '--auth-delay must be a whole number',
    },
  ]);
});

// the whole walk in this process: the commands run through main.ts's run, handed in by the program
describe('demo: output', () => {
  cliCases('demo', () => ({ BANKCTL_CONFIG_DIR: tempDir() }), [
    {
      name: 'every step runs, amounts exact, the secrets typed nowhere',
      args: ['--no-interactive', '--auth-delay', '20', '--no-color'],
      code: 0,
      stdout: [/UPDATED/, /CHECKING/, /-?\d+\.\d{2} SEK/],
      stderr: [
        '$ bankctl credentials connect',
        // shown as a person would run it: the secret from a file, not typed and not waited for
        /--field-stdin password .*< password\.txt\n/,
        /--user-token-stdin .*< user-token\.txt\n/,
        /delivered 40, duplicates 0/,
        'Delete the end user',
        (err) => expect(err).not.toMatch(/warning:|retrying|error:/),
        (err) => expect(err).not.toContain('demo-user-token-0001'),
        (err) => expect(err).not.toMatch(/password=test-password/),
      ],
    },
  ]);
});

// `npm start | head` (or `| less` quit early): the reader of stdout goes away while the walk runs.
// Each step's output went through a stream of the demo's own whose failed write was an unhandled
// 'error' event: a stack trace ("Error: write EPIPE"), exit 1.
describe('demo: stdout closed by its reader', () => {
  test('the walk stops quietly: no stack trace, exit 0', async () => {
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'demo', '--no-interactive', '--auth-delay', '20', '--no-color'], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, BANKCTL_CONFIG_DIR: tempDir() } as NodeJS.ProcessEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += c));
      // the first line of output read, then the pipe closed, as `head -1` does
      child.stdout.once('data', () => child.stdout.destroy());
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });
    expect(r.stderr).not.toMatch(/EPIPE|node:events|\n {4}at /);
    expect(r.code).toBe(0);
  }, 90_000);
});
