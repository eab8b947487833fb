// The contract: every command has examples in --help. Every command of the whole program (all nouns
// loaded, as completion loads them), nouns and nested nouns included, shows an Examples section;
// a noun without its own shows its verbs' first ones.
import { describe, expect, test } from 'vitest';
import type { Command } from 'commander';
import { Context } from '../../src/context.js';
import { testIO } from '../../src/io.js';
import { createProgram } from '../../src/program.js';

function all(cmd: Command, path: string[] = []): Array<[string, Command]> {
  return cmd.commands
    .filter((c) => c.name() !== 'help' && !c.name().startsWith('__'))
    .flatMap((c) => [[[...path, c.name()].join(' '), c] as [string, Command], ...all(c, [...path, c.name()])]);
}

describe('--help examples', () => {
  test("every noun and verb shows an Examples section; a noun its verbs' first ones", async () => {
    const io = testIO({});
    const program = await createProgram(new Context(io), ['completion']);
    const commands = all(program);
    expect(commands.length).toBeGreaterThan(150);
    const without: string[] = [];
    for (const [name, cmd] of commands) {
      const before = io.out().length;
      cmd.outputHelp();
      if (!io.out().slice(before).includes('\nExamples:\n  $ ')) without.push(name);
    }
    expect(without).toEqual([]);
    const users = program.commands.find((c) => c.name() === 'users')!;
    const before = io.out().length;
    users.outputHelp();
    expect(io.out().slice(before)).toMatch(/Examples:\n {2}\$ bankctl users create .*\n {2}\$ bankctl users delete /);
  });

  test('an example that feeds ids through xargs runs nothing on an empty list (xargs -r)', async () => {
    // `... | xargs -n1 bankctl webhooks delete --yes` with no webhooks ran the verb once without
    // its id: exit 123 and "missing required argument" for a list that was simply empty
    const io = testIO({});
    const program = await createProgram(new Context(io), ['completion']);
    const lines: string[] = [];
    for (const [, cmd] of all(program)) {
      const before = io.out().length;
      cmd.outputHelp();
      lines.push(
        ...io
          .out()
          .slice(before)
          .split('\n')
          .filter((l) => l.includes('| xargs ')),
      );
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((l) => !/\| xargs -r /.test(l))).toEqual([]);
  });

  test("every noun's help command is worded as the root's, not commander's default", async () => {
    // "help [command]  display help for command" stood in every noun's list of verbs, beside the
    // root's "show the help of a command"
    const io = testIO({});
    const program = await createProgram(new Context(io), ['completion']);
    const nouns = all(program).filter(([, cmd]) => cmd.commands.length > 0);
    expect(nouns.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const [name, cmd] of nouns) {
      const before = io.out().length;
      cmd.outputHelp();
      const text = io.out().slice(before);
      if (
        text.includes('display help for command') ||
        !/\n {2}help \[verb\] +show the help of one of these verbs\n/.test(text)
      )
        wrong.push(name);
    }
    expect(wrong).toEqual([]);
  });

  test("a noun's description names every verb it lists (users and accounts grew verbs)", async () => {
    const io = testIO({});
    const program = await createProgram(new Context(io), ['completion']);
    for (const noun of ['users', 'accounts']) {
      const cmd = program.commands.find((c) => c.name() === noun)!;
      const verbs = cmd.commands.map((c) => c.name()).filter((n) => n !== 'help');
      const missing = verbs.filter((v) => !cmd.description().includes(v));
      expect({ noun, missing }).toEqual({ noun, missing: [] });
    }
  });
});
