// run(argv, io) -> exit code. Builds the program, runs it, maps errors to the contract's codes.
// Only bin/bankctl.js turns the number into the process exit code.
import { processIO, type IO } from './io.js';
import type { Context, ContextOptions } from './context.js';
import { BankctlError, ExitCode, exitCodeFor } from './errors.js';
import { VERSION } from './version.js';

export async function run(argv: string[], io: IO = processIO(), opts: ContextOptions = {}): Promise<number> {
  // The fast path: nothing else is loaded for a version query.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${VERSION}\n`);
    return ExitCode.OK;
  }
  const { Context } = await import('./context.js');
  const ctx = new Context(io, opts);
  // Ctrl-C: commands that own their shutdown (servers, the connect walker, push) claim it with
  // ctx.claimInterrupt(); anything else stops at once with 130.
  let offInterrupt: () => void = () => undefined;
  const interrupted = new Promise<number>((resolve) => {
    offInterrupt = io.onInterrupt(() => {
      if (ctx.interruptClaimed) return;
      io.stderr.write('\ninterrupted\n');
      resolve(ExitCode.INTERRUPTED);
    });
  });
  try {
    const { createProgram } = await import('./program.js');
    const program = await createProgram(ctx, argv, { runCommandLine: run });
    return await Promise.race([program.parseAsync(argv, { from: 'user' }).then(() => ctx.exitCode), interrupted]);
  } catch (err) {
    return reportError(ctx, err);
  } finally {
    offInterrupt();
    await ctx.dispose().catch(() => undefined);
  }
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

export function reportError(ctx: Context, err: unknown): number {
  if (isCommanderError(err)) {
    // commander has already printed its message (help, version or a usage error)
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.code === 'commander.version')
      return ExitCode.OK;
    return err.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
  }
  const code = exitCodeFor(err);
  if (err instanceof BankctlError) {
    const hint = err.hint ? ` (${err.hint})` : '';
    ctx.io.stderr.write(`error: ${err.message}${hint}\n`);
    if (ctx.verbose && err.cause instanceof Error && err.cause.stack) ctx.io.stderr.write(`${err.cause.stack}\n`);
    return code;
  }
  const e = err as Error;
  ctx.io.stderr.write(
    `error: unexpected: ${e?.message ?? String(err)}${ctx.verbose ? '' : ' (run with --verbose for details)'}\n`,
  );
  if (ctx.verbose && e?.stack) ctx.io.stderr.write(`${e.stack}\n`);
  return code;
}
