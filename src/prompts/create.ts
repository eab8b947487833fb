// The inquirer-backed prompter, loaded only by commands that ask questions. Prompts render on
// stderr so stdout stays data only; what they show from the network (provider names, field
// descriptions) is stripped of control sequences and kept to one line; Ctrl-C at any prompt is an interruption (130).
import { checkbox, confirm, input, password, search, select } from '@inquirer/prompts';
import type { IO } from '../io.js';
import { InterruptedError } from '../errors.js';
import { singleLine } from '../output/sanitize.js';
import type { Choice, Prompter } from './prompter.js';

/** inquirer rejects with ExitPromptError on Ctrl-C in raw mode: that is an interrupt, not a bug. */
export function isPromptInterrupt(err: unknown): boolean {
  const name = (err as Error)?.name ?? '';
  return name === 'ExitPromptError' || name === 'AbortPromptError';
}

async function interruptible<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (isPromptInterrupt(err)) throw new InterruptedError('interrupted at a prompt');
    throw err;
  }
}

const clean = <T>(choices: Choice<T>[]): Choice<T>[] =>
  choices.map((c) => ({
    ...c,
    name: singleLine(c.name),
    ...(c.description !== undefined ? { description: singleLine(c.description) } : {}),
  }));

const plain = (text: string): string => text;

/**
 * inquirer's look without colour or bold: its own themes colour by the terminal alone (NO_COLOR in
 * the environment), deaf to --no-color. Every colour of the prompts used here is in these keys.
 */
const PLAIN_THEME = {
  prefix: { idle: '?', done: '✔' },
  spinner: { interval: 80, frames: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] },
  style: {
    answer: plain,
    message: plain,
    error: (text: string) => `> ${text}`,
    defaultAnswer: (text: string) => `(${text})`,
    help: plain,
    highlight: plain,
    key: (text: string) => `<${text}>`,
    disabled: (text: string) => `- ${text}`,
    disabledChoice: (text: string) => `- ${text}`,
    description: plain,
    searchTerm: plain,
    keysHelpTip: (keys: [string, string][]) => keys.map(([key, action]) => `${key} ${action}`).join(' • '),
  },
};
const PLAIN_CHECKBOX_THEME = { ...PLAIN_THEME, icon: { checked: '◉' } };

/** `color`: the context's (--no-color, NO_COLOR, FORCE_COLOR, a terminal). */
export function createPrompter(io: IO, color = true): Prompter {
  const base = { input: io.stdin, output: io.stderr, clearPromptOnDone: false };
  /**
   * Runs one prompt that a signal ends too: Ctrl-C typed at a prompt is a key in raw mode, but a
   * SIGINT or SIGTERM sent to the process (`kill`, `timeout`) reached only the command's handler,
   * and a prompt of a command that handles its own interruption (a connect round) waited for a key
   * for ever. The abort ends the prompt (terminal restored) as Ctrl-C does: an interruption (130).
   */
  const ask = <T>(run: (context: typeof base & { signal: AbortSignal }) => Promise<T>): Promise<T> => {
    const abort = new AbortController();
    const off = io.onInterrupt(() => abort.abort());
    return interruptible(run({ ...base, signal: abort.signal })).finally(off);
  };
  // one line each: a line break in a bank's text would draw a line (a fake prompt) of its own
  const msg = (m: string) => singleLine(m);
  // the prompts' option types differ in their themes' extra keys; the plain one fills them all
  const theme = (color ? undefined : PLAIN_THEME) as never;
  const checkboxTheme = (color ? undefined : PLAIN_CHECKBOX_THEME) as never;
  return {
    input: (o) =>
      ask((context) =>
        input(
          { message: msg(o.message), default: o.default && singleLine(o.default), validate: o.validate, theme },
          context,
        ),
      ),
    password: (o) =>
      ask((context) => password({ message: msg(o.message), mask: '*', validate: o.validate, theme }, context)),
    confirm: (o) => ask((context) => confirm({ message: msg(o.message), default: o.default, theme }, context)),
    select: (o) =>
      ask((context) =>
        select({ message: msg(o.message), choices: clean(o.choices), default: o.default, theme }, context),
      ),
    search: (o) =>
      ask((context) =>
        search({ message: msg(o.message), source: async (term) => clean(o.source(term)), theme }, context),
      ),
    checkbox: (o) =>
      ask((context) => checkbox({ message: msg(o.message), choices: clean(o.choices), theme: checkboxTheme }, context)),
  };
}
