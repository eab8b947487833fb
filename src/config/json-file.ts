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
    try {
      value = JSON.parse(withoutBom(text));
    } catch (err) {
      throw new UsageError(`${this.what} ${this.path} cannot be read: ${(err as Error).message}`, {
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
