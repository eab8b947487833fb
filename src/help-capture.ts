// Build time (scripts/build.mjs): every command's `--help` as the program prints it, with the parts
// that depend on the terminal's width left as markers for src/fast-help.ts to wrap at run time.
// Bundled on its own (not part of dist/), so patching commander's Help here touches nothing else.
import { Help, type Command } from 'commander';
import { Context } from './context.js';
import { testIO } from './io.js';
import { run } from './main.js';
import { createProgram } from './program.js';

/** Wide enough that nothing wraps at capture time; a boxWrap width is recorded as its distance from it. */
const CAPTURE_WIDTH = 100_000;
const marker = (kind: 'I' | 'W', value: unknown[]): string => `\0${kind}${JSON.stringify(value)}\0`;

/** Every command path of the program ('' for the root), nouns loaded. */
async function paths(): Promise<string[][]> {
  const program = await createProgram(new Context(testIO()), ['completion']);
  const out: string[][] = [];
  const walk = (cmd: Command, path: string[]) => {
    out.push(path);
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return out;
}

/** { 'bankctl.json': { '': root help }, 'users.json': { users: ..., 'users create': ... }, ... } */
export async function captureHelp(): Promise<Record<string, Record<string, string>>> {
  const proto = Help.prototype as unknown as Record<string, unknown>;
  const saved = { formatItem: proto.formatItem, boxWrap: proto.boxWrap, prepareContext: proto.prepareContext };
  const prepare = saved.prepareContext as (this: Help, o: object) => void;
  proto.prepareContext = function (this: Help, o: object) {
    prepare.call(this, { ...o, helpWidth: CAPTURE_WIDTH });
  };
  proto.formatItem = (term: string, termWidth: number, description: string) =>
    marker('I', [term, termWidth, description]);
  proto.boxWrap = (text: string, width: number) => marker('W', [text, CAPTURE_WIDTH - width]);
  const files: Record<string, Record<string, string>> = {};
  try {
    for (const path of await paths()) {
      const io = testIO();
      const code = await run([...path, '--help'], io);
      // only what prints its help and nothing else: anything else stays with the program
      if (code !== 0 || io.err() !== '') continue;
      const file = `${path[0] ?? 'bankctl'}.json`;
      (files[file] ??= {})[path.join(' ')] = io.out();
    }
  } finally {
    Object.assign(proto, saved);
  }
  return files;
}
