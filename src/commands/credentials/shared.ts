// Flags and helpers the credentials verbs share: --field/--field-stdin/--answer parsing, --answers
// files, the warning for secrets typed on the command line, the walker's flags, and the table columns.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ApiError, InterruptedError, UsageError } from '../../errors.js';
import type { Column, RenderSpec } from '../../output/render.js';
import { V1_CREDENTIALS_FIELDS } from '../../contract/item-fields.js';
import { collect, parseIntArg, parseKeyValue, splitList } from '../util.js';
import { isRefreshItem, REFRESH_ITEMS } from '../../contract/vocabulary.js';
import type { walkCredentials, WalkOptions } from '../../flows/connect.js';
import { inputReadError, readInputFile } from '../../fs/read-input.js';

export const CREDENTIALS_COLUMNS: Column[] = [
  { header: 'id', path: 'id' },
  { header: 'providerName', path: 'providerName' },
  { header: 'status', path: 'status' },
  { header: 'statusUpdated', path: 'statusUpdated' },
  { header: 'statusPayload', path: 'statusPayload' },
  { header: 'updated', path: 'updated' },
];

/**
 * How every verb shows credentials: the columns, and the fields the reference declares, so that
 * `--fields` takes an optional one this answer lacks (a connect that ends without sessionExpiryDate
 * is not a usage error after the bank was connected).
 */
export const CREDENTIALS_VIEW: RenderSpec = { columns: CREDENTIALS_COLUMNS, declared: V1_CREDENTIALS_FIELDS };

export function keyValues(list: string[] | undefined, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of list ?? []) {
    const [k, v] = parseKeyValue(raw, flag);
    out[k] = v;
  }
  return out;
}

export interface FieldFlags {
  field?: string[];
  fieldStdin?: string;
}

/** --field NAME=VALUE (repeatable) and --field-stdin NAME: the provider's credentials fields. */
export function addFieldFlags(cmd: Command, fieldHelp: string): Command {
  return cmd
    .option('--field <name=value>', fieldHelp, collect)
    .option(
      '--field-stdin <name>',
      'read the value of this field (a password) from the first line of standard input, out of the process list (on a terminal: asked for, masked)',
    );
}

/**
 * The fields from --field and --field-stdin, and the names given on the command line (whose values
 * other users can read in the process list).
 */
export async function readFields(
  ctx: Context,
  o: FieldFlags,
): Promise<{ fields: Record<string, string>; onCommandLine: string[] }> {
  const fields = keyValues(o.field, '--field');
  const onCommandLine = Object.keys(fields);
  if (o.fieldStdin === undefined) return { fields, onCommandLine };
  const name = o.fieldStdin.trim();
  if (!name) throw new UsageError('--field-stdin needs the name of a field, e.g. --field-stdin password');
  if (fields[name] !== undefined) throw new UsageError(`give --field ${name}=... or --field-stdin ${name}, not both`);
  if (ctx.globals.clientSecretStdin)
    throw new UsageError('--field-stdin and --client-secret-stdin cannot both read standard input', {
      hint: 'give the client secret in BANKCTL_CLIENT_SECRET or the profile',
    });
  const value = await ctx.readStdinSecret(`--field-stdin ${name}`, name);
  (await ctx.http()).redactor.add(value);
  return { fields: { ...fields, [name]: value }, onCommandLine };
}

type FieldDef = { name: string; masked?: boolean; sensitive?: boolean };

/** A field whose value is a secret: the provider marks it masked or sensitive, or it is a password. */
export function isSecretField(name: string, defs: FieldDef[]): boolean {
  if (/^password$/i.test(name)) return true;
  return defs.some((f) => f.name === name && (f.masked || f.sensitive));
}

/**
 * Warns once per secret field typed on the command line, and keeps its value out of traces.
 * `defs` are the provider's field definitions, when known.
 */
export async function warnSecretFields(
  ctx: Context,
  fields: Record<string, string>,
  onCommandLine: string[],
  defs: FieldDef[],
  alternatives = '',
): Promise<void> {
  for (const name of onCommandLine) {
    if (!isSecretField(name, defs)) continue;
    (await ctx.http()).redactor.add(fields[name]!);
    if (!ctx.quiet)
      ctx.warn(
        `--field ${name} on the command line is visible to other users in the process list; use --field-stdin ${name}${alternatives} instead`,
      );
  }
}

/**
 * The field definitions of a provider, read only when a field typed on the command line is not
 * already known to be secret by its name; none when they cannot be read (the name rule stays).
 */
export async function fieldDefsFor(
  ctx: Context,
  onCommandLine: string[],
  providerName: () => Promise<string>,
): Promise<FieldDef[]> {
  if (onCommandLine.every((n) => isSecretField(n, []))) return [];
  try {
    const { findProvider } = await import('../../api/providers.js');
    return (await findProvider(await ctx.api(), await providerName())).fields ?? [];
  } catch {
    return [];
  }
}

export async function loadAnswers(
  ctx: Context,
  o: { answer?: string[]; answers?: string },
): Promise<Record<string, string>> {
  let fromFile: Record<string, string> = {};
  if (o.answers) {
    const file = resolve(ctx.io.cwd, o.answers);
    let text: string;
    try {
      text = await readInputFile(file);
    } catch (err) {
      throw inputReadError(err, o.answers, '--answers');
    }
    const { parseAnswersText } = await import('../../flows/supplemental.js');
    try {
      fromFile = parseAnswersText(text, o.answers);
    } catch (err) {
      throw new UsageError(`--answers ${(err as Error).message}`);
    }
  }
  // --answer wins over the file
  const answers = { ...fromFile, ...keyValues(o.answer, '--answer') };
  // `*` only ever answers checkboxes, which take true or false: a wrong value is refused before the
  // credentials are created (found in the round, it would leave them waiting for input)
  const all = answers['*'];
  if (all !== undefined && all !== 'true' && all !== 'false')
    throw new UsageError(`--answer *: answer true or false, got "${all}"`, {
      hint: "`*` ticks (true) or leaves out (false) every account of an opt-in; --answer '*=true'",
    });
  return answers;
}

export function parseItems(values: string[] | undefined): string[] | undefined {
  const items = splitList(values, '--items').map((i) => i.toUpperCase());
  const bad = items.filter((i) => !isRefreshItem(i));
  if (bad.length > 0)
    throw new UsageError(`--items: unknown item ${bad.join(', ')}`, { hint: `one of ${REFRESH_ITEMS.join(', ')}` });
  return items.length > 0 ? items : undefined;
}

export interface WalkFlags {
  answer?: string[];
  answers?: string;
  waitTimeout: string;
  pollInterval: string;
  returnUrl?: string;
  browser: boolean;
  qr?: boolean;
}

/** The flags of the status-machine walker (connect, and refresh/update/authenticate --wait). */
export function addWalkFlags(cmd: Command): Command {
  return cmd
    .option(
      '--answer <name=value>',
      'answer for a supplemental field (repeatable); *=true or *=false answers every checkbox (account opt-in) not named',
      collect,
    )
    .option('--answers <file>', 'answers from a file: a JSON object, or name=value lines')
    .option('--wait-timeout <seconds>', 'give up (exit 9) when no final status came within this time', '300')
    .option('--poll-interval <ms>', 'first polling interval; it backs off to 5 s', '500')
    .option('--return-url <url>', 'where the eID app returns to (also prints the iOS https link)')
    .option('--no-browser', 'print redirect URLs but do not open a browser')
    .option('--qr', 'print QR codes even when stderr is not a terminal');
}

export async function walkOptions(ctx: Context, id: string, o: WalkFlags): Promise<WalkOptions> {
  const waitS = parseIntArg(o.waitTimeout, '--wait-timeout', { min: 1 })!;
  const pollMs = parseIntArg(o.pollInterval, '--poll-interval', { min: 10, max: 60_000 })!;
  if (o.returnUrl) {
    try {
      new URL(o.returnUrl);
    } catch {
      throw new UsageError(`--return-url: "${o.returnUrl}" is not a URL`);
    }
  }
  return {
    id,
    answers: await loadAnswers(ctx, o),
    waitTimeoutMs: waitS * 1000,
    pollMs,
    maxPollMs: Math.max(pollMs, 5000),
    returnUrl: o.returnUrl,
    browser: o.browser,
    qr: o.qr ? 'always' : 'auto',
  };
}

/**
 * `--wait` after a request that starts a round (refresh, authenticate), made ready before that
 * request is sent: the credentials as they are then (until that status changes, a final status is
 * the last round's: WalkOptions.before) and the walker, loaded now so that the walk's first read
 * follows the request at once (a round that ends before that read cannot be told from the last).
 * Undefined without --wait; else the walk to run once the request is taken.
 */
export async function walkAfterRequest(
  ctx: Context,
  walk: WalkOptions | undefined,
): Promise<(() => ReturnType<typeof walkCredentials>) | undefined> {
  if (!walk) return undefined;
  const { getCredentials } = await import('../../api/credentials.js');
  const before = await getCredentials(await ctx.api(), walk.id);
  const { walkCredentials } = await import('../../flows/connect.js');
  return () => walkCredentials(ctx, { ...walk, before });
}

/**
 * The create request (`POST /api/v1/credentials`) of `credentials create` and `connect`: Ctrl-C ends
 * it at once and says the credentials may exist already (the service may have made them before the
 * answer was cut off), and where to find them. `send` gets the signal that ends the request.
 */
export async function createInterruptibly<T>(
  ctx: Context,
  providerName: string,
  send: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const uf = ctx.userFlag();
  return sendInterruptibly(
    ctx,
    send,
    () =>
      new InterruptedError(
        `interrupted while the credentials for ${providerName} were being created: they may exist on the service now`,
        { hint: `\`bankctl credentials list${uf}\` shows them, \`bankctl credentials delete ID${uf}\` removes them` },
      ),
  );
}

/**
 * A request that changes credentials `id` (supplemental answers, a refresh, an authentication): Ctrl-C
 * ends it at once and says it may have reached the service, and how to see the credentials' status.
 * It said only "interrupted", which reads as "nothing happened" when the bank may be acting on it.
 * `what`: the request, e.g. "the answers for credentials ID were being sent".
 */
export async function changeInterruptibly<T>(
  ctx: Context,
  id: string,
  what: string,
  send: (signal: AbortSignal) => Promise<T>,
  o: { busy?: boolean } = {},
): Promise<T> {
  const uf = ctx.userFlag();
  try {
    return await sendInterruptibly(
      ctx,
      send,
      () =>
        new InterruptedError(`interrupted while ${what}: the request may have reached the service`, {
          hint: `\`bankctl credentials get${uf} ${id}\` shows their status`,
        }),
    );
  } catch (err) {
    // `busy`: a 409 is the refresh or authentication already running (one at a time per
    // credentials): it said only the service's words, not what to do next
    if (o.busy && err instanceof ApiError && err.status === 409 && !err.hint)
      err.hint = `follow the one that runs with \`bankctl credentials watch${uf} ${id}\`, then try again`;
    throw err;
  }
}

async function sendInterruptibly<T>(
  ctx: Context,
  send: (signal: AbortSignal) => Promise<T>,
  interrupted: () => InterruptedError,
): Promise<T> {
  const stop = new AbortController();
  const release = ctx.claimInterrupt(() => stop.abort());
  try {
    return await send(stop.signal);
  } catch (err) {
    if (!stop.signal.aborted) throw err;
    throw interrupted();
  } finally {
    release();
  }
}
