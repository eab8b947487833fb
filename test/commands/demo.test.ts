import { describe, expect } from 'vitest';
import type { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { newCmdDemo, type DemoOptions } from '../../src/commands/demo.js';
import type { Run } from '../../src/commands/util.js';
import { tempDir } from '../helpers/cli.js';
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
        '--field-stdin password',
        '--user-token-stdin',
        /delivered 40, duplicates 0/,
        'Delete the end user',
        (err) => expect(err).not.toMatch(/warning:|retrying|error:/),
        (err) => expect(err).not.toContain('demo-user-token-0001'),
        (err) => expect(err).not.toMatch(/password=test-password/),
      ],
    },
  ]);
});
