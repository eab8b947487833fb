// Small helpers shared by command definitions.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { isMarket, MARKETS } from '../contract/markets.js';
import { UsageError } from '../errors.js';
import { singleLine } from '../output/sanitize.js';

/**
 * The work of a verb once its flags are checked (gh's `xRun`). Each verb file exports
 * `newCmdX(parent, ctx, run = xRun)`, which declares the flags and checks them, then calls `run`;
 * a test can pass its own `run` to see the options a command line gives.
 */
export type Run<O> = (ctx: Context, opts: O) => Promise<void>;

/** `bankctl reports`: the words that name a command. */
export function commandPath(cmd: Command): string {
  const words: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) words.unshift(c.name());
  return words.join(' ');
}

/** The output-shaping flag a command line gave (--jq first), or undefined: for commands that print no list. */
export function shapingFlag(g: { jq?: unknown; fields?: unknown }): '--jq' | '--fields' | undefined {
  return g.jq !== undefined ? '--jq' : g.fields !== undefined ? '--fields' : undefined;
}

/**
 * A command that prints one bare value for `$(...)` (a token, a stored setting, a script, a PDF's
 * bytes): --jq and --fields have nothing to shape there, so a command line that asks for them is a
 * usage error before anything is sent, not a value printed as if they had been applied. (-o is
 * ignored, as the contract says of `auth token`: BANKCTL_OUTPUT=json must not break `$(...)`.)
 */
export function printsBare(cmd: Command, what: string): Command {
  return cmd.hook('preAction', (_hooked, action) => {
    const flag = shapingFlag(action.optsWithGlobals<{ jq?: string; fields?: string | boolean }>());
    if (!flag) return;
    throw new UsageError(`${flag} does not apply to \`${commandPath(action)}\`: its output is ${what}`, {
      hint: `drop ${flag}`,
    });
  });
}

/**
 * The line after one page of a paged list when more pages exist: on stderr, and not a notice that
 * -q hides. The list on stdout is partial with exit 0, so this line is the only sign of the rest
 * (and the only place a script reads the next token from: its last word); hidden, `-q -o json`
 * gave one page that read as the whole list.
 * The same line when --limit stopped a walk before the end says so (`limit`); `next` is then
 * undefined when it stopped inside a page, whose rest no token starts at: a larger --limit.
 */
export function morePages(ctx: Context, what: string, next: string | undefined, limit?: number): void {
  const stopped = limit === undefined ? '' : `stopped at --limit ${limit}; `;
  const rest = next ? `--page-token ${next}` : 'a larger --limit';
  ctx.io.stderr.write(`${singleLine(`more ${what}: ${stopped}use --all, or ${rest}`)}\n`);
}

/** The examples each command was given (nounExamples draws a noun's from its verbs'). */
const EXAMPLES = new WeakMap<Command, string[]>();

export function examples(cmd: Command, lines: string[]): Command {
  cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
  EXAMPLES.set(cmd, lines);
  return cmd;
}

/**
 * A noun without examples of its own (`bankctl users --help`) shows its verbs' first ones, up to
 * four, nested nouns first filled the same way: every command's --help has examples, and a noun's
 * stay what its verbs show.
 */
export function nounExamples(noun: Command): void {
  const verbs = noun.commands.filter((c) => c.name() !== 'help');
  for (const v of verbs) if (v.commands.length > 0) nounExamples(v);
  if (EXAMPLES.has(noun) || verbs.length === 0) return;
  const lines = verbs.flatMap((v) => EXAMPLES.get(v)?.slice(0, 1) ?? []).slice(0, 4);
  if (lines.length > 0) examples(noun, lines);
}

/**
 * A market flag as the service spells it (upper case); undefined when it is not given. Anything
 * else, the empty value too, is exit 2 naming the flag: an empty --market would list nothing.
 */
export function marketFlag(raw: string | undefined, flag = '--market'): string | undefined {
  if (raw === undefined) return undefined;
  const market = raw.toUpperCase();
  if (!isMarket(market))
    throw new UsageError(`${flag}: unknown market "${raw}"`, { hint: `one of ${MARKETS.join(', ')}` });
  return market;
}

/**
 * A profile write after a change the service has made (a user created, an endpoint's one-time
 * secret): when it fails, the error says the change was done (the answer is on stdout already), so
 * that nobody makes it again.
 */
export async function savedAfterChange(done: string, save: () => unknown): Promise<void> {
  try {
    await save();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const reason = e.path && e.code ? `${e.code} on ${e.path}` : (e?.message ?? String(err));
    throw new UsageError(`${done}, but the profile could not be saved: ${reason}`, {
      hint: 'the answer is on stdout; set it by hand with `bankctl config set` once the config can be written',
      cause: err,
    });
  }
}

/** For repeatable options: --event a --event b. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * Splits "a,b" and repeated flags into one list. A flag given with nothing in it (`--account ''`, a
 * script's variable that came out empty) is a usage error: taken as "no filter", it would answer
 * for everything with exit 0.
 */
export function splitList(values: string[] | string | undefined, flag: string): string[] {
  if (values === undefined) return [];
  const list = (Array.isArray(values) ? values : [values])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (list.length === 0)
    throw new UsageError(`${flag} is empty`, {
      hint: `give ${flag} one or more values (a,b or the flag repeated), or leave it out`,
    });
  return list;
}

export function parseKeyValue(raw: string, flag: string): [string, string] {
  const i = raw.indexOf('=');
  if (i <= 0) throw new UsageError(`${flag} expects key=value, got "${raw}"`);
  return [raw.slice(0, i), raw.slice(i + 1)];
}

export function parseIntArg(
  raw: string | undefined,
  flag: string,
  opts: { min?: number; max?: number } = {},
): number | undefined {
  if (raw === undefined) return undefined;
  // the allowed range is part of every refusal (1e9 and 99999999999 alike)
  const range =
    opts.min !== undefined && opts.max !== undefined
      ? ` from ${opts.min} to ${opts.max}`
      : opts.min !== undefined
        ? ` of at least ${opts.min}`
        : opts.max !== undefined
          ? ` of at most ${opts.max}`
          : '';
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n))
    throw new UsageError(`${flag} must be a whole number${range}, got "${raw}"`);
  // out of range is said as a value that is not a number is: one wording for every flag
  if ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max))
    throw new UsageError(`${flag} must be a whole number${range}, got ${raw.trim()}`);
  return n;
}

/**
 * `-o json` of a list the service wraps with totals (`loans list`, `search`) prints the whole
 * response, so --fields names its paths; a path of the items (`--fields name,balance`) is then
 * unknown, and the error says where the items' fields are.
 */
export async function renderWhole(
  ctx: { globals: { fields?: unknown } },
  show: () => Promise<void>,
  listKey: string,
  itemsAre: string,
): Promise<void> {
  try {
    await show();
  } catch (err) {
    if (!(err instanceof UsageError) || ctx.globals.fields === undefined || !err.message.startsWith('--fields:'))
      throw err;
    throw new UsageError(err.message, {
      hint: `${err.hint ?? ''}; -o json is the whole response, its ${itemsAre} under "${listKey}": for their own fields use -o ndjson or -o csv`,
    });
  }
}
