// The inquirer-backed prompter, loaded only by commands that ask questions.
import { checkbox, confirm, input, password, search, select } from '@inquirer/prompts';
import type { IO } from '../io.js';
import type { Prompter } from './prompter.js';

export function createPrompter(io: IO): Prompter {
  // Prompts render on stderr so stdout stays data only.
  const context = { input: io.stdin, output: io.stderr, clearPromptOnDone: false };
  return {
    input: (o) => input({ message: o.message, default: o.default, validate: o.validate }, context),
    password: (o) => password({ message: o.message, mask: '*', validate: o.validate }, context),
    confirm: (o) => confirm({ message: o.message, default: o.default }, context),
    select: (o) => select({ message: o.message, choices: o.choices }, context),
    search: (o) => search({ message: o.message, source: async (term) => o.source(term) }, context),
    checkbox: (o) => checkbox({ message: o.message, choices: o.choices }, context),
  };
}
