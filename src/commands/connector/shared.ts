// Helpers of the connector commands: which external user, reading a JSON body from --file/--data
// with numbers kept exact and errors as FILE:LINE.
import { accessSync, constants, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { ExactNumber, WireError, isObj } from '../../contract/connector-wire.js';
import { InputError } from '../../push/input.js';
import { NotUtf8Error } from '../../fs/utf8.js';
import { JsonLineError, parseLineJson } from '../../push/json.js';
import { errnoReason } from '../../fs/errors.js';
import { inputReadError, readInputFile, readStreamText } from '../../fs/read-input.js';
import { assertWritableDir } from '../../fs/writable.js';
import { DateError, dateFromText, EPOCH_MS, secondsLike } from '../../push/dates.js';

/** The external user id: --user on the verb, else the global --user/--external-user, else an external-user setting. */
export async function externalUser(ctx: Context, given?: string): Promise<string> {
  const u = given ?? ctx.globals.externalUser ?? ctx.globals.user;
  if (u) return u;
  // a user id from the profile or BANKCTL_USER is the service's own id (`users create --use`), not
  // the externalId the connector's paths take: only an external user setting stands in for --user
  const ref = await ctx.userRef();
  if (ref?.externalUserId) return ref.externalUserId;
  const from = ref?.userId ? ctx.userSource(await ctx.settings()) : undefined;
  throw new UsageError('which user? pass --user EXTERNAL_USER_ID (the externalId given at activation)', {
    hint: ref?.userId
      ? `the user ${ref.userId}${from ? ` of the ${from}` : ''} is taken as the service's user id, which connector commands do not take; if it is the externalId, pass --user ${ref.userId}`
      : undefined,
  });
}

/** A JSON body from --file FILE (or - for stdin) or --data TEXT, parsed with exact numbers. */
export async function jsonInput(
  ctx: Context,
  o: { file?: string; data?: string },
  what: string,
): Promise<{ value: unknown; name: string; lineOf: (v: unknown) => number }> {
  if (o.file && o.data) throw new UsageError('give --file or --data, not both');
  let text: string;
  let name: string;
  if (o.data !== undefined) {
    text = o.data;
    name = '--data';
  } else if (o.file) {
    const file = o.file;
    name = file === '-' ? 'stdin' : file;
    try {
      text = await (file === '-' ? readStreamText(ctx.io.stdin) : readInputFile(file));
    } catch (err) {
      throw inputReadError(err, name, '--file');
    }
  } else throw new UsageError(`give ${what} with --file FILE (or - for stdin) or --data JSON`);
  try {
    return { ...parseLineJson(text), name };
  } catch (err) {
    if (err instanceof JsonLineError) throw new UsageError(`${name}:${err.line}: malformed JSON: ${err.message}`);
    throw err;
  }
}

/**
 * A container's transaction dates written as `connector push` reads them (an ISO-8601 date or
 * date-time, or epoch milliseconds as text) become the epoch milliseconds the wire takes, in place:
 * the same transaction was refused by `transactions update` and `batch` ("must be a whole number of
 * epoch milliseconds") after the push had taken it. A number that as milliseconds is before 1973
 * (epoch seconds, or 20260131) gets the push's hint: the service took 1700000000 as 1970-01-20, exit 0.
 * A date that is none is `fail(field, reason)`.
 */
export function isoDates(container: unknown, fail: (field: string, message: string) => Error): void {
  if (!isObj(container) || !Array.isArray(container.transactionAccounts)) return;
  container.transactionAccounts.forEach((a, i) => {
    if (!isObj(a) || !Array.isArray(a.transactions)) return;
    a.transactions.forEach((t, j) => {
      if (!isObj(t)) return;
      // a number is read as push reads it too: 1700000000 (epoch seconds) is not stored as 1970-01-20
      const number =
        t.date instanceof ExactNumber ? t.date.text : typeof t.date === 'number' ? String(t.date) : undefined;
      if (typeof t.date !== 'string' && number === undefined) return;
      try {
        const odd = number !== undefined && EPOCH_MS.test(number) ? secondsLike(number) : undefined;
        if (odd) throw new DateError(odd);
        if (typeof t.date === 'string') t.date = dateFromText(t.date);
      } catch (err) {
        if (!(err instanceof DateError)) throw err;
        throw fail(`transactionAccounts[${i}].transactions[${j}].date`, err.message);
      }
    });
  });
}

/**
 * The line of a WireError's field (e.g. transactionAccounts[0].transactions[1].externalId) under
 * `root`: that of the deepest object on the path, since the reader keeps the line each object starts
 * on; the line of `root` when the path names nothing in it.
 */
export function lineOfField(root: unknown, field: string, lineOf: (v: unknown) => number): number {
  let line = lineOf(root);
  let cur: unknown = root;
  for (const seg of field.match(/[^.[\]]+/g) ?? []) {
    if (Array.isArray(cur)) cur = /^\d+$/.test(seg) ? cur[Number(seg)] : undefined;
    else if (isObj(cur)) cur = Object.hasOwn(cur, seg) ? cur[seg] : undefined;
    else break;
    if (isObj(cur)) line = lineOf(cur);
  }
  return line;
}

/** Turns input problems into exit-2 errors that name FILE:LINE. */
export function inputFailure(err: unknown, name?: string): unknown {
  if (err instanceof InputError) return new UsageError(err.message);
  if (err instanceof NotUtf8Error && name !== undefined) return new UsageError(`${name}:${err.line}: ${err.problem}`);
  if (err instanceof WireError) return new UsageError(err.message);
  return err;
}

/** Validates with a WireError-throwing checker, reporting the line of the offending object. */
export function checked<T>(name: string, line: number, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof WireError) throw new UsageError(`${name}:${line}: ${err.message}`);
    throw err;
  }
}

/** A file the command will read: exists, is a regular file, readable; else exit 2 naming the flag. */
export function readableFile(path: string, flag: string): void {
  try {
    if (!statSync(path).isFile()) throw Object.assign(new Error('not a regular file'), { code: 'not a regular file' });
    accessSync(path, constants.R_OK);
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${path}: ${errnoReason(err)}`);
  }
}

/** A file the command will write: its directory exists and is writable; else exit 2 naming the flag. */
export function writableFile(path: string, flag: string): void {
  try {
    assertWritableDir(resolve(path));
  } catch (err) {
    throw new UsageError(`${flag}: cannot write ${path}: ${errnoReason(err)}`);
  }
  // a directory there would be found only when the file is written, after the push
  let dir = false;
  try {
    dir = statSync(path).isDirectory();
  } catch {
    // not there yet: it will be made
  }
  if (dir) throw new UsageError(`${flag}: ${path} is a directory; give a file name`);
}

/**
 * The input as a file: "-" (stdin) is spooled to a private temp file, removed when the command
 * ends, since a push and a verify read their input more than once.
 */
export async function spooledInput(ctx: Context, file: string, format: string): Promise<string> {
  if (file !== '-') return file;
  const spool = mkdtempSync(join(tmpdir(), 'bankctl-push-'));
  ctx.onCleanup(() => rmSync(spool, { recursive: true, force: true }));
  const path = join(spool, `stdin.${format}`);
  await pipeline(ctx.io.stdin, createWriteStream(path, { mode: 0o600 }));
  // a closed stdin or a producer that failed in a pipe: not "0 transactions", which would exit 0
  if (statSync(path).size === 0)
    throw new UsageError('--file -: nothing was read from standard input (pipe the input in, or give --file FILE)');
  return path;
}
