// What commands may ask a person. The inquirer implementation is bound to the context's streams;
// tests use the scripted one. Commands never prompt unless canPrompt(io) says both ends are TTYs.

export interface Choice<T = string> {
  name: string;
  value: T;
  description?: string;
  checked?: boolean;
}

export interface Prompter {
  input(o: { message: string; default?: string; validate?: (v: string) => true | string }): Promise<string>;
  password(o: { message: string; validate?: (v: string) => true | string }): Promise<string>;
  confirm(o: { message: string; default?: boolean }): Promise<boolean>;
  /** `default`: the value of the choice the cursor starts on. */
  select<T>(o: { message: string; choices: Choice<T>[]; default?: T }): Promise<T>;
  search<T>(o: { message: string; source: (term: string | undefined) => Choice<T>[] }): Promise<T>;
  checkbox<T>(o: { message: string; choices: Choice<T>[] }): Promise<T[]>;
}

/**
 * Why nothing is asked on a terminal: stdin is one but stdout is not (`... | jq`, `> out.json`).
 * Said in the hint, with what to do, since "no terminal to ask on" reads as wrong to someone
 * typing at one. undefined when stdin is not a terminal either (a script: nothing to explain).
 */
export function pipedStdout(io: { stdinIsTTY: boolean; stdoutIsTTY: boolean }): string | undefined {
  return io.stdinIsTTY && !io.stdoutIsTTY
    ? 'stdout is a pipe or a file, not a terminal, and bankctl asks only when stdin and stdout both are terminals'
    : undefined;
}

/**
 * The hint of a "no terminal to ask on" error: `what` to pass instead, after why a person at a
 * terminal is not asked when that is so (pipedStdout); `otherwise` (default `what`) for a script.
 */
export function noTerminalHint(
  io: { stdinIsTTY: boolean; stdoutIsTTY: boolean },
  what: string,
  otherwise = what,
): string {
  const piped = pipedStdout(io);
  return piped ? `${piped}: ${what}, or run it with stdout on the terminal` : otherwise;
}
