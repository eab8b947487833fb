// A Prompter that answers from a script, for tests: each question takes the next answer, checked
// against the validate function the real prompt would use; asked questions are recorded.
import type { Choice, Prompter } from './prompter.js';

export type ScriptedAnswer = string | boolean | string[] | { pick: string };

export interface Asked {
  kind: 'input' | 'password' | 'confirm' | 'select' | 'search' | 'checkbox';
  message: string;
  choices?: string[];
}

export class ScriptedPrompter implements Prompter {
  readonly asked: Asked[] = [];
  /** Messages a validate function returned for rejected scripted answers. */
  readonly rejected: string[] = [];

  constructor(private readonly answers: ScriptedAnswer[]) {}

  private next(kind: Asked['kind'], message: string, choices?: Choice<unknown>[]): ScriptedAnswer {
    this.asked.push({ kind, message, ...(choices ? { choices: choices.map((c) => c.name) } : {}) });
    if (this.answers.length === 0) throw new Error(`scripted prompter: no answer left for ${kind} "${message}"`);
    return this.answers.shift()!;
  }

  private text(
    kind: 'input' | 'password',
    o: { message: string; validate?: (v: string) => true | string; default?: string },
  ): Promise<string> {
    // like inquirer, a rejected answer is asked again: the script supplies the next one
    for (;;) {
      const a = this.next(kind, o.message);
      const v = typeof a === 'string' ? (a === '' && o.default !== undefined ? o.default : a) : String(a);
      const ok = o.validate ? o.validate(v) : true;
      if (ok === true) return Promise.resolve(v);
      this.rejected.push(ok);
    }
  }

  input(o: { message: string; default?: string; validate?: (v: string) => true | string }): Promise<string> {
    return this.text('input', o);
  }

  password(o: { message: string; validate?: (v: string) => true | string }): Promise<string> {
    return this.text('password', o);
  }

  async confirm(o: { message: string; default?: boolean }): Promise<boolean> {
    const a = this.next('confirm', o.message);
    return typeof a === 'boolean' ? a : a === 'y' || a === 'yes' || a === 'true';
  }

  async select<T>(o: { message: string; choices: Choice<T>[]; default?: T }): Promise<T> {
    const a = this.next('select', o.message, o.choices as Choice<unknown>[]);
    // '' is Enter on the choice the cursor starts on
    if (a === '')
      return o.default !== undefined && o.choices.some((c) => c.value === o.default) ? o.default : o.choices[0]!.value;
    return pick(a, o.choices);
  }

  async search<T>(o: { message: string; source: (term: string | undefined) => Choice<T>[] }): Promise<T> {
    const a = this.next('search', o.message);
    const term = typeof a === 'object' && !Array.isArray(a) ? a.pick : String(a);
    const choices = o.source(term);
    this.asked[this.asked.length - 1]!.choices = choices.map((c) => c.name);
    if (choices.length === 0) throw new Error(`scripted prompter: the search for "${term}" found nothing`);
    return choices[0]!.value;
  }

  async checkbox<T>(o: { message: string; choices: Choice<T>[] }): Promise<T[]> {
    const a = this.next('checkbox', o.message, o.choices as Choice<unknown>[]);
    const wanted = Array.isArray(a) ? a : [String(a)];
    return o.choices.filter((c) => wanted.some((w) => c.name.includes(w) || String(c.value) === w)).map((c) => c.value);
  }
}

function pick<T>(a: ScriptedAnswer, choices: Choice<T>[]): T {
  const want = typeof a === 'object' && !Array.isArray(a) ? a.pick : String(a);
  const c = choices.find((x) => String(x.value) === want) ?? choices.find((x) => x.name.includes(want));
  if (!c) throw new Error(`scripted prompter: no choice matches "${want}"`);
  return c.value;
}
