// The streams and process facts a command may touch. Tests build their own with testIO().
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { UsageError } from './errors.js';

export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Terminal width for tables and progress bars. */
  columns: number;
  /** Registers a handler for Ctrl-C; returns a function that removes it. */
  onInterrupt(handler: () => void): () => void;
}

/** Set by the first Ctrl-C (or SIGTERM) of this process. */
let stopping = false;
let guarded = false;

/**
 * What an interrupted command leaves behind: work in flight (a chunk waiting out a retry, a
 * connection pool closing) ends with the abort's own rejection after the command has answered, with
 * nothing left to await it. Once Ctrl-C has been pressed those are the shutdown, not a failure:
 * without this, Node printed their stack and exited 1 after (or instead of) the command's
 * "interrupted" summary and its exit 130. Anything else stays as fatal as Node makes it.
 */
function isShutdownRejection(reason: unknown): boolean {
  const r = reason as { name?: unknown; code?: unknown } | undefined;
  return (
    r?.name === 'AbortError' ||
    r?.code === 'ABORT_ERR' ||
    r?.code === 'UND_ERR_ABORTED' ||
    r?.code === 'UND_ERR_DESTROYED' ||
    r?.name === 'ClientDestroyedError'
  );
}

function guardShutdown(): void {
  if (guarded) return;
  guarded = true;
  process.on('unhandledRejection', (reason) => {
    if (stopping && isShutdownRejection(reason)) return;
    throw reason;
  });
}

export function processIO(): IO {
  guardShutdown();
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    env: process.env,
    // read when a command needs it: a directory deleted under the shell fails only a command that
    // resolves a relative path, with one line, not every command with a stack trace
    get cwd(): string {
      try {
        return process.cwd();
      } catch (err) {
        throw new UsageError(
          `the current directory no longer exists (${(err as NodeJS.ErrnoException).code ?? 'ENOENT'})`,
          {
            hint: 'cd to a directory that exists, or give absolute paths',
          },
        );
      }
    },
    columns: process.stdout.columns || process.stderr.columns || 100,
    onInterrupt(handler) {
      const h = (): void => {
        stopping = true;
        handler();
      };
      // a closed terminal (SIGHUP) stops a foreground sandbox or a push as TERM does: the last
      // snapshot or checkpoint is written, nothing is left claiming to run
      const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
      for (const s of signals) process.on(s, h);
      return () => {
        for (const s of signals) process.off(s, h);
      };
    },
  };
}

/** Whether the user can be asked questions: both ends are terminals. */
export function canPrompt(io: IO): boolean {
  return io.stdinIsTTY && io.stdoutIsTTY;
}

export interface TestIO extends IO {
  out(): string;
  err(): string;
  interrupt(): void;
  stdinWrite(text: string): void;
}

/** In-memory streams for in-process tests. */
export function testIO(
  opts: Partial<Pick<IO, 'env' | 'cwd' | 'stdinIsTTY' | 'stdoutIsTTY' | 'stderrIsTTY' | 'columns'>> & {
    stdin?: string;
  } = {},
): TestIO {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c.toString()));
  stderr.on('data', (c) => (err += c.toString()));
  if (opts.stdin !== undefined) stdin.end(opts.stdin);
  const handlers = new Set<() => void>();
  return {
    stdin,
    stdout,
    stderr,
    stdinIsTTY: opts.stdinIsTTY ?? false,
    stdoutIsTTY: opts.stdoutIsTTY ?? false,
    stderrIsTTY: opts.stderrIsTTY ?? false,
    env: opts.env ?? {},
    cwd: opts.cwd ?? process.cwd(),
    columns: opts.columns ?? 100,
    onInterrupt(h) {
      handlers.add(h);
      return () => handlers.delete(h);
    },
    out: () => out,
    err: () => err,
    interrupt: () => handlers.forEach((h) => h()),
    stdinWrite: (t) => stdin.write(t),
  };
}
