// run(argv, io) -> exit code. Builds the program, runs it, maps errors to the contract's codes.
// Only bin/bankctl.js turns the number into the process exit code.
import { processIO, type IO } from './io.js';
import type { Context, ContextOptions } from './context.js';
import { BankctlError, ExitCode, exitCodeFor, withHint } from './errors.js';
import { VERSION } from './version.js';
import { stripControl } from './output/sanitize.js';
import { errnoReason, isFileSystemError } from './fs/errors.js';

export async function run(argv: string[], io: IO = processIO(), opts: ContextOptions = {}): Promise<number> {
  // The fast path: nothing else is loaded for a version query.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${VERSION}\n`);
    return ExitCode.OK;
  }
  argv = helpFlagLast(argv);
  const { Context } = await import('./context.js');
  const ctx = new Context(io, opts);
  // Ctrl-C: commands that own their shutdown (servers, the connect walker, push) claim it with
  // ctx.claimInterrupt(); anything else stops at once with 130.
  let offInterrupt: () => void = () => undefined;
  let stopped = false;
  const interrupted = new Promise<number>((resolve) => {
    offInterrupt = io.onInterrupt(() => {
      if (ctx.interruptClaimed) return;
      stopped = true;
      io.stderr.write('\ninterrupted\n');
      resolve(ExitCode.INTERRUPTED);
    });
  });
  try {
    const { createProgram } = await import('./program.js');
    const program = await createProgram(ctx, argv, { runCommandLine: run });
    // Ctrl-C while the program was being built: the command is not started at all
    if (stopped) return ExitCode.INTERRUPTED;
    return await Promise.race([program.parseAsync(argv, { from: 'user' }).then(() => ctx.exitCode), interrupted]);
  } catch (err) {
    return reportError(ctx, err);
  } finally {
    offInterrupt();
    await ctx.dispose().catch(() => undefined);
  }
}

/**
 * `bankctl --help users create` is the help of `users create`, as `gh --help pr` is pr's: commander
 * answers a leading --help with the top-level help, which is not what was asked for.
 */
function helpFlagLast(argv: string[]): string[] {
  if ((argv[0] === '--help' || argv[0] === '-h') && argv.length > 1 && !argv[1]!.startsWith('-'))
    return [...argv.slice(1), argv[0]];
  return argv;
}

interface CommanderLikeError {
  code: string;
  exitCode: number;
  message: string;
}

function isCommanderError(err: unknown): err is CommanderLikeError {
  return (
    !!err &&
    typeof err === 'object' &&
    typeof (err as { code?: unknown }).code === 'string' &&
    (err as { code: string }).code.startsWith('commander.')
  );
}

/** The one error printer: one line on stderr, network text in it stripped of control sequences. */
export function reportError(ctx: Context, err: unknown): number {
  if (isCommanderError(err)) {
    // commander has already printed its message (help, version or a usage error)
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.code === 'commander.version')
      return ExitCode.OK;
    return err.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
  }
  // a message may quote a server that echoed a credential: the secrets of this run are taken out
  // after the control bytes, so that a secret split by one (hun\x1bter2) is whole again when redacted
  const line = (msg: string) => ctx.io.stderr.write(`error: ${ctx.redact(oneLine(msg))}\n`);
  // Ctrl-C at a prompt that nothing above caught (inquirer's own error): an interruption
  const name = (err as Error)?.name;
  if (name === 'ExitPromptError' || name === 'AbortPromptError') {
    line('interrupted at a prompt');
    return ExitCode.INTERRUPTED;
  }
  if (err instanceof BankctlError) {
    line(withHint(err));
    if (ctx.verbose && err.cause instanceof Error && err.cause.stack)
      ctx.io.stderr.write(`${ctx.redact(stripControl(err.cause.stack))}\n`);
    return exitCodeFor(err);
  }
  // A file that could not be written or read (a full disk, a read-only file system) is not a bug.
  const e = err as NodeJS.ErrnoException;
  if (isFileSystemError(e) && typeof e?.path === 'string') {
    line(`cannot ${e.syscall === 'open' || e.syscall === 'read' ? 'open' : 'write'} ${e.path}: ${errnoReason(e)}`);
    if (ctx.verbose && e.stack) ctx.io.stderr.write(`${e.stack}\n`);
    return ExitCode.USAGE;
  }
  line(`unexpected: ${e?.message ?? String(err)}${ctx.verbose ? '' : ' (run with --verbose for details)'}`);
  if (ctx.verbose && e?.stack) ctx.io.stderr.write(`${ctx.redact(stripControl(e.stack))}\n`);
  return exitCodeFor(err);
}

/** Control sequences out: a message may quote a server, a file or an id from the network. */
function oneLine(msg: string): string {
  return stripControl(msg);
}
