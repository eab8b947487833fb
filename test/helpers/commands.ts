// A command's tests in a few lines, table-driven the way gh's TestNewCmd... tests are:
//  - optionCases: a command line -> the options its verb's run receives (or the usage error), with
//    nothing sent anywhere (the verb's own `run` is replaced, gh's runF);
//  - cliCases: `bankctl <command> <args>` run in-process against a sandbox on port 0 (useSandbox) or
//    any loopback server -> exit code, stdout and stderr.
// Spawned-process tests (test/helpers/cli.ts spawnCli) stay for what needs a process: signals,
// pipes, exit codes of the real binary, TTYs.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Command } from 'commander';
import { Context } from '../../src/context.js';
import { testIO } from '../../src/io.js';
import { reportError } from '../../src/main.js';
import { rootCommand } from '../../src/program.js';
import type { Run } from '../../src/commands/util.js';
import type { SandboxOptions } from '../../src/sandbox/context.js';
import { generateDemoData } from '../../src/sandbox/demo-data.js';
import { runCli, type CliResult } from './cli.js';
import { startTestSandbox, userWithToken, type TestEnv } from './sandbox.js';

/** What a stream must hold: a substring, a pattern, or a function that asserts. */
export type Check = string | RegExp | ((text: string) => void | Promise<void>);

/** The stream parsed as JSON matches this (toMatchObject). */
export const json =
  (expected: unknown) =>
  (text: string): void =>
    expect(JSON.parse(text)).toMatchObject(expected as object);

/** The stream does not contain this. */
export const not =
  (unwanted: string | RegExp) =>
  (text: string): void =>
    typeof unwanted === 'string' ? expect(text).not.toContain(unwanted) : expect(text).not.toMatch(unwanted);

async function check(what: string, text: string, c: Check | Check[] | undefined): Promise<void> {
  for (const one of c === undefined ? [] : Array.isArray(c) ? c : [c]) {
    // '' would be contained in anything: it means nothing at all
    if (one === '') expect(text, what).toBe('');
    else if (typeof one === 'string') expect(text, what).toContain(one);
    else if (one instanceof RegExp) expect(text, what).toMatch(one);
    else await one(text);
  }
}

export interface CliCase {
  name: string;
  /** The arguments after the command path (a function for ids made in beforeAll). */
  args: string[] | (() => string[]);
  code: number;
  stdout?: Check | Check[];
  stderr?: Check | Check[];
  stdin?: string | (() => string);
  /** Added to (or, with undefined values, taken from) the environment of the table. */
  env?: Record<string, string | undefined>;
  stdoutIsTTY?: boolean;
  /** Runs before the command (state the case needs). */
  before?: () => Promise<void> | void;
  /** Checks after the command (state it left behind). */
  after?: (r: CliResult) => Promise<void> | void;
}

/**
 * One test per case: `bankctl <command> <args>` in-process. Every case also checks that no user
 * mistake comes out as a crash: no "unexpected" and no stack trace unless the case expects exit 1.
 */
export function cliCases(command: string, env: () => Record<string, string | undefined>, cases: CliCase[]): void {
  const path = command.split(' ').filter(Boolean);
  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await c.before?.();
    const args = [...path, ...(typeof c.args === 'function' ? c.args() : c.args)];
    const stdin = typeof c.stdin === 'function' ? c.stdin() : c.stdin;
    const r = await runCli(args, { env: { ...env(), ...c.env }, stdin, stdoutIsTTY: c.stdoutIsTTY });
    expect(r.code, `exit code of bankctl ${args.join(' ')}\n${r.stderr}`).toBe(c.code);
    await check('stdout', r.stdout, c.stdout);
    await check('stderr', r.stderr, c.stderr);
    if (c.code !== 1) {
      expect(r.stderr).not.toMatch(/error: unexpected/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    await c.after?.(r);
  });
}

/** gh's NewCmd signature here: declare the flags on `parent`, check them, hand the options to `run`. */
export type NewCmd<O> = (parent: Command, ctx: Context, run: Run<O>) => Command;

export interface OptionsResult<O> {
  /** 0 when the command line was accepted (then `options` is what run got), else the exit code. */
  code: number;
  options?: O;
  stdout: string;
  stderr: string;
}

/**
 * Parses `<command> <args>` with only this verb in the tree and a `run` that records its options.
 * A one-word command is a noun that is a command itself (search, smoke, completion).
 */
export async function optionsOf<O>(
  command: string,
  newCmd: NewCmd<O>,
  args: string[],
  opts: { env?: Record<string, string | undefined>; stdin?: string; stdinIsTTY?: boolean; stdoutIsTTY?: boolean } = {},
): Promise<OptionsResult<O>> {
  const io = testIO({
    env: opts.env ?? {},
    stdin: opts.stdin ?? '',
    stdinIsTTY: opts.stdinIsTTY,
    stdoutIsTTY: opts.stdoutIsTTY,
  });
  const ctx = new Context(io);
  const root = rootCommand(ctx);
  const words = command.split(' ').filter(Boolean);
  let parent = root;
  for (const w of words.slice(0, -1)) parent = parent.command(w);
  let options: O | undefined;
  const record: Run<O> = async (_ctx, o) => {
    options = o;
  };
  if (words.length === 1) newCmd(root.command(words[0]!), ctx, record);
  else newCmd(parent, ctx, record);
  let code = 0;
  try {
    await root.parseAsync([...words, ...args], { from: 'user' });
  } catch (err) {
    code = reportError(ctx, err);
  } finally {
    await ctx.dispose();
  }
  return { code, options, stdout: io.out(), stderr: io.err() };
}

export interface OptionCase<O> {
  name: string;
  args: string[];
  /** The options run receives (toMatchObject); absent when the line is refused. */
  options?: Partial<O> | Record<string, unknown>;
  /** The exit code when refused (2 for a usage error). */
  code?: number;
  stderr?: Check | Check[];
  env?: Record<string, string | undefined>;
  stdin?: string;
  stdoutIsTTY?: boolean;
}

/** One test per case: the options a command line gives, or the error that refuses it. */
export function optionCases<O>(command: string, newCmd: NewCmd<O>, cases: OptionCase<O>[]): void {
  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const r = await optionsOf(command, newCmd, c.args, { env: c.env, stdin: c.stdin, stdoutIsTTY: c.stdoutIsTTY });
    expect(r.code, r.stderr).toBe(c.code ?? 0);
    if (c.options !== undefined) expect(r.options).toMatchObject(c.options as object);
    if ((c.code ?? 0) !== 0) expect(r.options, 'a refused command line runs nothing').toBeUndefined();
    await check('stderr', r.stderr, c.stderr);
  });
}

export interface SandboxFixture {
  readonly t: TestEnv;
  /** The environment that points the CLI at the sandbox (with BANKCTL_USER when a user was made). */
  readonly env: Record<string, string>;
  readonly userId: string;
}

/**
 * A sandbox on port 0 for the test file; with `user`, a user (BANKCTL_USER) and, with `months`,
 * that many months of realistic accounts and transactions for them.
 */
export function useSandbox(
  opts: { user?: boolean; months?: number; market?: string; sandbox?: SandboxOptions } = {},
): SandboxFixture {
  let t: TestEnv | undefined;
  let userId = '';
  beforeAll(async () => {
    t = await startTestSandbox(opts.sandbox);
    if (opts.user || opts.months) {
      userId = (await userWithToken(t.sandbox, ['user:read'], opts.market)).userId;
      if (opts.months)
        generateDemoData(t.sandbox.store, {
          userId,
          credentialsIds: ['f'.repeat(32)],
          providerName: 'se-test-password',
          currencyCode: 'SEK',
          seed: userId,
          now: t.sandbox.clock.now(),
          months: opts.months,
        });
    }
  });
  afterAll(async () => t?.close());
  return {
    get t() {
      return t!;
    },
    get env() {
      return userId ? { ...t!.env, BANKCTL_USER: userId } : t!.env;
    },
    get userId() {
      return userId;
    },
  };
}

/** Connects the password test provider for the user of `env` (in-process); the credentials id. */
export async function connectTestBank(env: Record<string, string | undefined>): Promise<string> {
  const r = await runCli(
    [
      'credentials',
      'connect',
      '--provider',
      'se-test-password',
      '--field',
      'username=test-user',
      '--field-stdin',
      'password',
      '--poll-interval',
      '20',
      '-o',
      'json',
    ],
    { env, stdin: 'test-password\n' },
  );
  if (r.code !== 0) throw new Error(`connect: exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout).id as string;
}
