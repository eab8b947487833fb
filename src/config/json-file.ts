// One JSON file of the config directory (config.json, tokens.json): read whole on each access (a
// few hundred bytes), updated by a read-modify-write under <file>.lock, written atomically 0600
// (src/fs/atomic.ts). A file that cannot be read or parsed is an error naming it, never reset.
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';
import { writeFileAtomicSync } from '../fs/atomic.js';
import { errnoReason, fileError } from '../fs/errors.js';
import { withoutBom } from '../fs/bom.js';
import { withLockSync } from '../fs/lock.js';
import { checkPrivate, tightenFile } from './private.js';

export class JsonFile<T extends object> {
  constructor(
    readonly path: string,
    private readonly what: string,
  ) {}

  /** The content, or undefined when the file does not exist. */
  read(): T | undefined {
    checkPrivate(this.path, 'file');
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new UsageError(`${this.what} ${this.path} cannot be read: ${errnoReason(err)}`, {
        hint: 'check its permissions; bankctl never overwrites it',
        cause: err,
      });
    }
    if (text.trim() === '') return undefined;
    let value: unknown;
    const json = withoutBom(text);
    try {
      value = JSON.parse(json);
    } catch (err) {
      // where, as an editor goes to it (path:line:column), not JSON.parse's character position
      const { line, column, problem } = syntaxErrorAt(json, (err as Error).message);
      throw new UsageError(`${this.what} ${this.path}:${line}:${column} is not valid JSON: ${problem}`, {
        hint: 'fix or remove the file; bankctl never overwrites it',
        cause: err,
      });
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new UsageError(`${this.what} ${this.path} is not valid: it must hold a JSON object`, {
        hint: 'fix or remove the file; bankctl never overwrites it',
      });
    tightenFile(this.path);
    return value as T;
  }

  /**
   * Applies fn to the current content and writes the result, holding the file's lock from the
   * read to the rename. fn returning undefined writes nothing.
   */
  update(fn: (current: T | undefined) => T | undefined): void {
    const dir = dirname(this.path);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw fileError(err, dir, 'write', 'the config directory');
    }
    checkPrivate(dir, 'directory');
    withLockSync(
      this.path,
      () => {
        const next = fn(this.read());
        if (next === undefined) return;
        writeFileAtomicSync(this.path, `${JSON.stringify(next, null, '\t')}\n`, { mode: 0o600, what: this.what });
      },
      { what: this.what },
    );
  }
}

/**
 * JSON.parse's message as a line and column (1-based, in characters) and the problem alone. Its
 * position (or, at an early end, the end of the text) becomes the line and column; the bit of the
 * file some node versions quote (`"..." is not valid JSON`) is left out, as it may be part of a secret.
 */
export function syntaxErrorAt(text: string, message: string): { line: number; column: number; problem: string } {
  const at = / at position (\d+)/.exec(message);
  // node 20 gives no position for an unexpected token (only a piece of the text): found by scanning
  const pos = Math.min(at ? Number(at[1]) : firstBadOffset(text), text.length);
  const before = text.slice(0, pos);
  const lineStart = before.lastIndexOf('\n') + 1;
  const problem =
    message
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/ after JSON at position \d+.*$/s, ' after the JSON value')
      .replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '')
      // a control character of the file, as an escape: never sent to the terminal as is
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) ||
    'malformed JSON';
  return {
    line: before.split('\n').length,
    column: Array.from(before.slice(lineStart)).length + 1,
    problem,
  };
}

/** Where JSON.parse stops on text it refuses: the offset of the first character that cannot be there (or the end). */
function firstBadOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (;;) {
        if (c === '{') {
          ws();
          if (text[i] !== '"') fail();
          string();
          ws();
          if (text[i] !== ':') fail();
          i++;
        }
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === close) return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  const string = (): void => {
    i++;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c < ' ') fail();
      if (c === '\\') {
        if (text[i + 1] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail();
          i += 6;
        } else if (text[i + 1] !== undefined && '"\\/bfnrt'.includes(text[i + 1]!)) i += 2;
        else fail();
      } else i++;
    }
  };
  try {
    value();
    ws();
    return i;
  } catch (at) {
    if (typeof at === 'number') return at;
    throw at;
  }
}
