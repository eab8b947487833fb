// Error classes and the one mapping from errors to the contract's exit codes.

export const ExitCode = {
  OK: 0,
  UNEXPECTED: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  CONFLICT: 5,
  RATE_LIMITED: 6,
  SERVER: 7,
  NETWORK: 8,
  FLOW_FAILED: 9,
  INTERRUPTED: 130,
} as const;

export class BankctlError extends Error {
  readonly exitCode: number = ExitCode.UNEXPECTED;
  hint?: string;
  constructor(message: string, opts: { hint?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.hint = opts.hint;
  }
}

export class UsageError extends BankctlError {
  override readonly exitCode = ExitCode.USAGE;
}
export class AuthError extends BankctlError {
  override readonly exitCode = ExitCode.AUTH;
}
export class NotFoundError extends BankctlError {
  override readonly exitCode = ExitCode.NOT_FOUND;
}
export class ConflictError extends BankctlError {
  override readonly exitCode = ExitCode.CONFLICT;
}
export class ServerError extends BankctlError {
  override readonly exitCode = ExitCode.SERVER;
}
export class NetworkError extends BankctlError {
  override readonly exitCode = ExitCode.NETWORK;
}
export class FlowFailedError extends BankctlError {
  override readonly exitCode = ExitCode.FLOW_FAILED;
}
export class InterruptedError extends BankctlError {
  override readonly exitCode = ExitCode.INTERRUPTED;
}

/** A non-2xx answer from the service, with the service's own message already extracted. */
export class ApiError extends BankctlError {
  override readonly exitCode: number;
  constructor(
    readonly status: number,
    readonly method: string,
    readonly url: string,
    readonly serviceMessage: string,
    readonly body: unknown,
    /** requestIds: the X-Request-ID text of the exchange (src/http/client.ts requestIdText), quoted last. */
    opts: { hint?: string; requestIds?: string; headers?: Record<string, string | string[] | undefined> } = {},
  ) {
    super(
      `${method} ${pathOf(url)} failed: HTTP ${status}${serviceMessage ? `: ${serviceMessage}` : ''}${opts.requestIds ? ` [${opts.requestIds}]` : ''}`,
      opts,
    );
    this.exitCode = exitCodeForStatus(status);
    this.headers = opts.headers ?? {};
  }

  /** The answer's headers as the service sent them (`api -i` shows them, redacted). */
  readonly headers: Record<string, string | string[] | undefined>;

  /**
   * The externalIds a connector 409/410 names (errorDetails.externalIds, the strings of it):
   * undefined when it names none, the list being absent or empty.
   */
  namedExternalIds(): Set<string> | undefined {
    const named = (this.body as { errorDetails?: { externalIds?: unknown } } | undefined)?.errorDetails?.externalIds;
    if (!Array.isArray(named) || named.length === 0) return undefined;
    return new Set(named.filter((x): x is string => typeof x === 'string'));
  }
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname;
  } catch {
    return url;
  }
}

/** An error as a line says it: its message and, when it has one, its hint in parentheses. */
export function withHint(err: unknown): string {
  const hint = (err as { hint?: string }).hint;
  return `${(err as Error).message}${hint ? ` (${hint})` : ''}`;
}

export function exitCodeForStatus(status: number): number {
  if (status === 400 || status === 413 || status === 415 || status === 422) return ExitCode.USAGE;
  if (status === 401 || status === 403) return ExitCode.AUTH;
  if (status === 404) return ExitCode.NOT_FOUND;
  if (status === 409 || status === 410 || status === 412) return ExitCode.CONFLICT;
  if (status === 429) return ExitCode.RATE_LIMITED;
  // the service gave up waiting for the request (bankctl retries it as transient): a timeout
  if (status === 408) return ExitCode.NETWORK;
  if (status >= 500) return ExitCode.SERVER;
  if (status >= 400) return ExitCode.USAGE;
  // a redirect is not what an API endpoint answers (bankctl follows none: a token must not travel)
  if (status >= 300 && status < 400) return ExitCode.SERVER;
  return ExitCode.UNEXPECTED;
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof BankctlError) return err.exitCode;
  return ExitCode.UNEXPECTED;
}

/** The ways to name the acting user, for the errors of commands that need one. */
export const NAME_A_USER =
  'pass --user ID (or --external-user ID), set BANKCTL_USER, keep one in the profile with `bankctl config set user ID` (or `users create --use`)';

/**
 * One word of a POSIX shell command line, for a hint that tells what to run again: as is when it is
 * plain, else in single quotes (a quote inside as '\''), so pasting it gives the command the same text.
 */
export function shellWord(text: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, "'\\''")}'`;
}
