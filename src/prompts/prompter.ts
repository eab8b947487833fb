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
