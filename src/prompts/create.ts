// The inquirer-backed prompter, loaded only by commands that ask questions. Prompts render on
// stderr so stdout stays data only; what they show from the network (provider names, field
// descriptions) is stripped of control sequences; Ctrl-C at any prompt is an interruption (130).
import { checkbox, confirm, input, password, search, select } from '@inquirer/prompts';
import type { IO } from '../io.js';
import { InterruptedError } from '../errors.js';
import { stripControl } from '../output/sanitize.js';
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
    name: stripControl(c.name),
    ...(c.description !== undefined ? { description: stripControl(c.description) } : {}),
  }));

export function createPrompter(io: IO): Prompter {
  const context = { input: io.stdin, output: io.stderr, clearPromptOnDone: false };
  const msg = (m: string) => stripControl(m);
  return {
    input: (o) =>
      interruptible(
        input(
          { message: msg(o.message), default: o.default && stripControl(o.default), validate: o.validate },
          context,
        ),
      ),
    password: (o) => interruptible(password({ message: msg(o.message), mask: '*', validate: o.validate }, context)),
    confirm: (o) => interruptible(confirm({ message: msg(o.message), default: o.default }, context)),
    select: (o) =>
      interruptible(select({ message: msg(o.message), choices: clean(o.choices), default: o.default }, context)),
    search: (o) =>
      interruptible(search({ message: msg(o.message), source: async (term) => clean(o.source(term)) }, context)),
    checkbox: (o) => interruptible(checkbox({ message: msg(o.message), choices: clean(o.choices) }, context)),
  };
}
