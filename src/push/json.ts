// json input: one CreateTransactionAccountContainer read whole (up to a bound) by a small parser
// that remembers the line each object starts on, so a problem is reported as FILE:LINE.
import { stat } from 'node:fs/promises';
import type { Hash } from 'node:crypto';
import { ExactNumber, id, isObj, NUMBER_TEXT, obj, WireError, type Obj } from '../contract/connector-wire.js';
import { checkTransaction, message, optionalAmount, type InputRecord } from './records.js';
import { textChunks } from './text.js';
import { BOM_CHAR, CR, LF, SPACE, TAB } from './bytes.js';

/** A JSON file is read whole; above this, use ndjson. */
export const MAX_JSON_BYTES = 256 * 1024 * 1024;
/** Deeper nesting is an input error (checked as it is read: no stack or memory spent on it). */
export const MAX_JSON_DEPTH = 512;

export class JsonLineError extends Error {
  constructor(
    readonly line: number,
    msg: string,
  ) {
    super(msg);
  }
}

/** JSON's number grammar, the wire's NUMBER_TEXT unanchored, sticky: read where the parser stands. */
const NUMBER = new RegExp(NUMBER_TEXT.source.replace(/^\^|\$$/g, ''), 'y');
const STRING = /"(?:[^"\\\n\u0000-\u001f]|\\.)*"/y;

export class LineJson {
  private i = 0;
  private line = 1;
  private depth = 0;
  readonly lineOf = new WeakMap<object, number>();
  constructor(private readonly s: string) {}

  parse(): unknown {
    this.ws();
    const v = this.value();
    this.ws();
    if (this.i < this.s.length) this.fail('unexpected text after the JSON value');
    return v;
  }

  fail(msg: string): never {
    throw new JsonLineError(this.line, msg);
  }

  private ws(): void {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c === LF) this.line++;
      else if (c !== SPACE && c !== TAB && c !== CR) return;
      this.i++;
    }
  }

  private value(): unknown {
    const c = this.s[this.i];
    if (c === '{' || c === '[') {
      if (++this.depth > MAX_JSON_DEPTH) this.fail(`nested deeper than ${MAX_JSON_DEPTH} levels`);
      const v = c === '{' ? this.object() : this.array();
      this.depth--;
      return v;
    }
    if (c === '"') return this.string();
    if (c === 't' && this.s.startsWith('true', this.i)) return ((this.i += 4), true);
    if (c === 'f' && this.s.startsWith('false', this.i)) return ((this.i += 5), false);
    if (c === 'n' && this.s.startsWith('null', this.i)) return ((this.i += 4), null);
    if (c === '\uFEFF') this.fail('a byte order mark (U+FEFF) inside the file: files joined together? Remove it');
    NUMBER.lastIndex = this.i;
    const hit = NUMBER.exec(this.s);
    if (!hit) this.fail(c === undefined ? 'unexpected end of input' : `unexpected character ${JSON.stringify(c)}`);
    this.i += hit[0].length;
    return new ExactNumber(hit[0]);
  }

  /** After a member or an element: true for a comma (more follow), false for the closing bracket. */
  private next(close: string, what: string): boolean {
    this.ws();
    const c = this.s[this.i];
    this.i++;
    if (c === ',') return true;
    if (c === close) return false;
    return this.fail(`expected ',' or '${close}' in ${what}`);
  }

  private object(): Obj {
    const o: Obj = {};
    this.lineOf.set(o, this.line);
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') return (this.i++, o);
    do {
      this.ws();
      if (this.s[this.i] !== '"') this.fail('expected a property name in double quotes');
      const k = this.string();
      this.ws();
      if (this.s[this.i] !== ':') this.fail("expected ':' after a property name");
      this.i++;
      this.ws();
      o[k] = this.value();
    } while (this.next('}', 'an object'));
    return o;
  }

  private array(): unknown[] {
    const a: unknown[] = [];
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') return (this.i++, a);
    do {
      this.ws();
      a.push(this.value());
    } while (this.next(']', 'an array'));
    return a;
  }

  private string(): string {
    STRING.lastIndex = this.i;
    const hit = STRING.exec(this.s);
    if (!hit) this.fail('malformed string');
    this.i += hit[0].length;
    try {
      return JSON.parse(hit[0]) as string;
    } catch {
      return this.fail('malformed string escape');
    }
  }
}

const CONTAINER_FIELDS = new Set(['type', 'transactionAccounts']);
const ACCOUNT_FIELDS = new Set(['externalId', 'balance', 'reservedAmount', 'transactions']);

/** The members of o not in known: what bankctl does not know and passes through as written. */
export function extras(o: Obj, known: Set<string>): Obj | undefined {
  let out: Obj | undefined;
  for (const k in o) if (!known.has(k)) (out ??= {})[k] = o[k];
  return out;
}

async function readWhole(file: string, hash?: Hash): Promise<string | InputRecord> {
  const size = (await stat(file)).size;
  if (size > MAX_JSON_BYTES)
    return {
      line: 1,
      error: `the JSON file is larger than ${MAX_JSON_BYTES >> 20} MB: convert it to ndjson (one transaction a line) to stream it`,
      text: '',
    };
  let text = '';
  for await (const c of textChunks(file, hash)) text += c;
  return text;
}

/** One transactionAccounts entry's own members, checked. */
function accountOf(
  ta: unknown,
  i: number,
): Pick<InputRecord, 'account' | 'balance' | 'reservedAmount' | 'accountExtra'> {
  const path = `transactionAccounts[${i}].`;
  const a = obj(ta, `transactionAccounts[${i}]`);
  const account = id(a, 'externalId', path)!;
  const balance = optionalAmount(a, 'balance', path);
  if (balance === undefined) throw new WireError(`${path}balance`, 'is required');
  const reservedAmount = optionalAmount(a, 'reservedAmount', path);
  if (!Array.isArray(a.transactions)) throw new WireError(`${path}transactions`, 'is required (an array)');
  return { account, balance, reservedAmount, accountExtra: extras(a, ACCOUNT_FIELDS) };
}

/** json: a CreateTransactionAccountContainer read whole (bounded), records in file order. */
export async function* jsonRecords(file: string, hash?: Hash): AsyncGenerator<InputRecord> {
  const text = await readWhole(file, hash);
  if (typeof text !== 'string') return yield text;
  const p = new LineJson(text);
  let root: unknown;
  try {
    root = p.parse();
  } catch (err) {
    if (!(err instanceof JsonLineError)) throw err;
    return yield { line: err.line, error: `malformed JSON: ${err.message}`, text: '' };
  }
  const lineOf = (v: unknown) => (isObj(v) ? (p.lineOf.get(v) ?? 1) : 1);
  if (!isObj(root) || !Array.isArray(root.transactionAccounts))
    return yield {
      line: lineOf(root),
      error: 'expected a CreateTransactionAccountContainer: {"type": ..., "transactionAccounts": [...]}',
      text: '',
    };
  const type = typeof root.type === 'string' ? root.type : undefined;
  const containerExtra = extras(root, CONTAINER_FIELDS);
  for (const [i, ta] of root.transactionAccounts.entries()) {
    let account: ReturnType<typeof accountOf>;
    try {
      account = accountOf(ta, i);
    } catch (err) {
      yield { line: lineOf(ta), error: message(err), text: '' };
      continue;
    }
    for (const t of (ta as Obj).transactions as unknown[]) {
      try {
        const { tx, wire } = checkTransaction(obj(t, 'transaction'), false);
        yield { line: lineOf(t), ...account, tx, wire, type, containerExtra };
      } catch (err) {
        yield { line: lineOf(t), error: message(err), text: isObj(t) ? '' : String(t) };
      }
    }
  }
}

/** Reads a whole JSON file (numbers exact); a syntax or shape error is a JsonLineError with its line. */
export function parseLineJson(text: string): { value: unknown; lineOf: (v: unknown) => number } {
  const p = new LineJson(text.charCodeAt(0) === BOM_CHAR ? text.slice(1) : text);
  const value = p.parse();
  return { value, lineOf: (v) => (isObj(v) ? (p.lineOf.get(v) ?? 1) : 1) };
}
