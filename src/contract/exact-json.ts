// Exact JSON, the one reader and writer both sides use. JSON.parse puts every number through a
// double: 12345678901234567891 and 1.10 lose their digits and 1e400 becomes Infinity. Here a number
// that a double cannot give back digit for digit is kept as an ExactNumber (its literal text), and
// the writer writes that text back. Node 20 has neither JSON.rawJSON nor the reviver's source text,
// so numbers are marked in the text before JSON.parse and unmarked after.
import { randomBytes } from 'node:crypto';

// A per-process nonce: no string from the network can pose as a marker it cannot know.
const NONCE = randomBytes(8).toString('hex');
const MARK = `\u0000${NONCE}#`;
const MARK_ESCAPED = `\\u0000${NONCE}#`;
const MARKED = new RegExp(`"\\\\u0000${NONCE}#([^"\\\\]*)"`, 'g');

/** Set while writeJson runs: ExactNumber.toJSON then writes a marker that becomes the literal. */
let writing = 0;

/** A JSON number kept as its literal text. Reads as a number (valueOf) and as its text (toString). */
export class ExactNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
  valueOf(): number {
    return Number(this.text);
  }
  /** Its literal under writeJson; elsewhere (a plain JSON.stringify) the nearest double. */
  toJSON(): string | number {
    return writing > 0 ? `${MARK}${this.text}` : Number(this.text);
  }
}

export class JsonSyntaxError extends Error {}

const TOKEN = /"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

type NumberPolicy = 'all' | 'inexact';

// Where the input cannot hold a NUL (the connector refuses \u0000), a short fixed marker will do.
const SHORT_MARK = '\u0000#';
const SHORT_MARK_ESCAPED = '\\u0000#';

function parseMarked(text: string, policy: NumberPolicy): unknown {
  const [mark, escaped] = policy === 'all' ? [SHORT_MARK, SHORT_MARK_ESCAPED] : [MARK, MARK_ESCAPED];
  let marked = 0;
  const wrapped = text.replace(TOKEN, (m) => {
    if (m.charCodeAt(0) === 34) return m;
    if (policy === 'inexact' && String(Number(m)) === m) return m;
    marked++;
    return `"${escaped}${m}"`;
  });
  let v: unknown;
  try {
    v = JSON.parse(wrapped);
  } catch (err) {
    throw new JsonSyntaxError(
      ((err as Error).message ?? 'malformed JSON')
        .replace(/ in JSON at position \d+.*$/s, '')
        .replace(new RegExp(`"${escaped.replace(/\\/g, '\\\\')}([^"]*)"`, 'g'), '$1')
        .slice(0, 200),
    );
  }
  if (marked === 0) return v;
  try {
    return revive(v, mark);
  } catch (err) {
    if (err instanceof RangeError) throw new JsonSyntaxError('nested too deeply');
    throw err;
  }
}

function revive(v: unknown, mark: string): unknown {
  if (typeof v === 'string') return v.startsWith(mark) ? new ExactNumber(v.slice(mark.length)) : v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = revive(v[i], mark);
    return v;
  }
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k in o) o[k] = revive(o[k], mark);
    return o;
  }
  return v;
}

/**
 * The reader for every response: a number whose text a double gives back unchanged is a plain
 * number; any other (12345678901234567891, 1.10, 1e400, -0) is an ExactNumber. So `-o json` writes
 * what the service sent, and code that compares numbers still can.
 */
export function readJson<T = unknown>(text: string): T {
  return parseMarked(text, 'inexact') as T;
}

/**
 * The connector's reader (its bodies on both sides): every number an ExactNumber, so amounts are
 * validated and forwarded as written. The \u0000 escape is refused, as the service's checks do.
 */
export function parseExactJson(text: string): unknown {
  if (text.includes('\\u0000')) throw new JsonSyntaxError('the \\u0000 escape is not accepted');
  return parseMarked(text, 'all');
}

/** JSON.stringify that writes every ExactNumber as the literal it came from. */
export function writeJson(v: unknown, indent?: number): string {
  writing++;
  let s: string;
  try {
    s = JSON.stringify(v, null, indent);
  } finally {
    writing--;
  }
  // undefined for a bare undefined, as JSON.stringify
  if (s === undefined) return s;
  return s.includes(MARK_ESCAPED) ? s.replace(MARKED, '$1') : s;
}

/** The connector's name for writeJson (compact). */
export const stringifyExact = (v: unknown): string => writeJson(v);
