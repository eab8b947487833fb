// Input of `connector push` and `connector verify`: json (a CreateTransactionAccountContainer, read
// whole up to a bound), ndjson (one transaction a line) and csv (a header row), each as a stream of
// records that carry their line number, so a malformed one is reported as FILE:LINE.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  ExactNumber,
  JsonSyntaxError,
  WireError,
  amount,
  id,
  isObj,
  obj,
  parseExactJson,
  stringifyExact,
  validateAccount,
  validateTransaction,
  type Obj,
  type TransactionEntity,
} from '../contract/connector-wire.js';

export type InputFormat = 'json' | 'ndjson' | 'csv';

export interface InputRecord {
  line: number;
  /** The account's externalId. */
  account?: string;
  balance?: ExactNumber;
  reservedAmount?: ExactNumber;
  /** The checked transaction. */
  tx?: TransactionEntity;
  /** What goes on the wire for this transaction (numbers as their source text). */
  wire?: Obj;
  error?: string;
  /** The offending input, for the rejects file. */
  text?: string;
  /** json: the container's type. */
  type?: string;
  /** mode 'send': the transaction's externalId and its wire JSON (numbers as written). */
  externalId?: string;
  json?: string;
}

/**
 * exact: every number kept as its text (verify's sums); validate: the fast first pass (native
 * JSON.parse; only balances need their text); send: the second pass, which re-validates nothing and
 * cuts the wire JSON out of the line as written.
 */
export type ReadMode = 'exact' | 'validate' | 'send';

/** A JSON file is read whole; above this, use ndjson. */
export const MAX_JSON_BYTES = 256 * 1024 * 1024;

export function inferFormat(file: string, format?: string): InputFormat {
  if (format) {
    if (format === 'json' || format === 'ndjson' || format === 'csv') return format;
    if (format === 'jsonl') return 'ndjson';
    throw new WireError('--format', `must be json, ndjson or csv, got "${format}"`);
  }
  const f = file.toLowerCase();
  if (f.endsWith('.json')) return 'json';
  if (f.endsWith('.ndjson') || f.endsWith('.jsonl')) return 'ndjson';
  if (f.endsWith('.csv')) return 'csv';
  throw new WireError(
    '--format',
    `cannot tell the format of "${file}" from its extension: give --format json|ndjson|csv`,
  );
}

/** Lines of a stream in batches (one per chunk read), split by hand, with their 1-based numbers. */
export async function* lineBatches(stream: Readable): AsyncGenerator<Array<{ line: number; text: string }>> {
  let rest = '';
  let n = 0;
  stream.setEncoding('utf8');
  for await (const chunk of stream as AsyncIterable<string>) {
    const text = rest + chunk;
    const batch: Array<{ line: number; text: string }> = [];
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      n++;
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      batch.push({ line: n, text: text.slice(start, end) });
      start = nl + 1;
    }
    rest = text.slice(start);
    if (batch.length > 0) yield batch;
  }
  if (rest !== '') {
    n++;
    yield [{ line: n, text: rest.endsWith('\r') ? rest.slice(0, -1) : rest }];
  }
}

export async function* lines(stream: Readable): AsyncGenerator<{ line: number; text: string }> {
  for await (const batch of lineBatches(stream)) yield* batch;
}

function open(file: string): Readable {
  return createReadStream(file, { highWaterMark: 64 * 1024 });
}

function message(err: unknown): string {
  if (err instanceof WireError || err instanceof JsonSyntaxError) return err.message;
  throw err;
}

const ACCOUNT_FIELDS = new Set(['account', 'balance', 'reservedAmount']);

/** ndjson: a CreateTransactionEntity plus `account` (and optionally `balance`, `reservedAmount`). */
export async function* ndjsonRecords(file: string, mode: ReadMode = 'exact'): AsyncGenerator<InputRecord[]> {
  for await (const batch of lineBatches(open(file))) {
    const out: InputRecord[] = [];
    for (const { line, text } of batch) {
      if (text.trim() === '') continue;
      if (mode === 'send') out.push(sendRecord(line, text));
      else out.push(mode === 'validate' ? validateLine(line, text) : exactLine(line, text));
    }
    yield out;
  }
}

function exactLine(line: number, text: string): InputRecord {
  try {
    const o = obj(parseExactJson(text), 'line');
    const account = id(o, 'account', '')!;
    const balance =
      o.balance === undefined || o.balance === null
        ? undefined
        : (amount(o, 'balance', '', true), o.balance as ExactNumber);
    const reservedAmount =
      o.reservedAmount === undefined || o.reservedAmount === null
        ? undefined
        : (amount(o, 'reservedAmount', '', true), o.reservedAmount as ExactNumber);
    const wire: Obj = {};
    for (const k in o) if (!ACCOUNT_FIELDS.has(k)) wire[k] = o[k];
    const tx = validateTransaction(wire);
    return { line, account, balance, reservedAmount, tx, wire };
  } catch (err) {
    return { line, error: message(err), text };
  }
}

/** The first pass: native JSON.parse; the checks do not need exact numbers, balances do. */
export function validateLine(line: number, text: string): InputRecord {
  try {
    if (text.includes('\\u0000')) throw new JsonSyntaxError('the \\u0000 escape is not accepted');
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (err) {
      throw new JsonSyntaxError(
        `malformed JSON: ${((err as Error).message ?? '').replace(/ in JSON at position \d+.*$/s, '').slice(0, 200)}`,
      );
    }
    const o = obj(v, 'line');
    const account = id(o, 'account', '')!;
    let balance: ExactNumber | undefined;
    let reservedAmount: ExactNumber | undefined;
    if (
      (o.balance !== undefined && o.balance !== null) ||
      (o.reservedAmount !== undefined && o.reservedAmount !== null)
    ) {
      amount(o, 'balance', '', false);
      amount(o, 'reservedAmount', '', false);
      balance = numberText(text, 'balance', o.balance);
      reservedAmount = numberText(text, 'reservedAmount', o.reservedAmount);
    }
    const tx = validateTransaction(o);
    return { line, account, balance, reservedAmount, tx };
  } catch (err) {
    return { line, error: message(err), text };
  }
}

const NUMBER_AT = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** A top-level number member's text as written: found directly when unambiguous, else by a scan. */
function numberText(text: string, key: string, parsed: unknown): ExactNumber | undefined {
  if (parsed === undefined || parsed === null) return undefined;
  const at = text.indexOf(`"${key}":`);
  if (at >= 0 && text.indexOf(`"${key}":`, at + 1) < 0) {
    NUMBER_AT.lastIndex = at + key.length + 3;
    const m = NUMBER_AT.exec(text);
    if (m && Number(m[0]) === parsed) return new ExactNumber(m[0]);
  }
  for (const m of topLevelMembers(text) ?? []) if (m.key === key) return new ExactNumber(text.slice(m.vStart, m.end));
  return undefined;
}

/** The second pass: the line as written, less the account's own members; no parse of numbers. */
export function sendRecord(line: number, text: string): InputRecord {
  const members = topLevelMembers(text);
  if (!members) return { line, error: 'the line changed since it was checked', text };
  let account: string | undefined;
  let externalId: string | undefined;
  const kept: string[] = [];
  for (const m of members) {
    if (m.key === 'account') account = stringValue(text, m);
    else if (!ACCOUNT_FIELDS.has(m.key)) {
      if (m.key === 'externalId') externalId = stringValue(text, m);
      kept.push(text.slice(m.start, m.end));
    }
  }
  if (account === undefined || externalId === undefined)
    return { line, error: 'the line changed since it was checked', text };
  return { line, account, externalId, json: `{${kept.join(',')}}` };
}

function stringValue(text: string, m: Member): string | undefined {
  const raw = text.slice(m.vStart, m.end);
  if (raw.charCodeAt(0) !== 34) return undefined;
  return raw.indexOf('\\') < 0 ? raw.slice(1, -1) : (JSON.parse(raw) as string);
}

export interface Member {
  key: string;
  /** Offsets: the key's opening quote, the value's first character, just after the value. */
  start: number;
  vStart: number;
  end: number;
}

/** The top-level members of a JSON object's text, by offsets (a char scan, no allocation per value). */
export function topLevelMembers(s: string): Member[] | undefined {
  const n = s.length;
  let i = 0;
  const ws = () => {
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      i++;
    }
  };
  const str = (): boolean => {
    i++;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === 92) i += 2;
      else if (c === 34) {
        i++;
        return true;
      } else i++;
    }
    return false;
  };
  const value = (): boolean => {
    const c = s.charCodeAt(i);
    if (c === 34) return str();
    if (c === 123 || c === 91) {
      let depth = 0;
      while (i < n) {
        const d = s.charCodeAt(i);
        if (d === 34) {
          if (!str()) return false;
          continue;
        }
        if (d === 123 || d === 91) depth++;
        else if (d === 125 || d === 93) {
          depth--;
          if (depth === 0) {
            i++;
            return true;
          }
        }
        i++;
      }
      return false;
    }
    const start = i;
    while (i < n) {
      const d = s.charCodeAt(i);
      if (d === 44 || d === 125 || d === 93 || d === 32 || d === 9 || d === 10 || d === 13) break;
      i++;
    }
    return i > start;
  };
  ws();
  if (s.charCodeAt(i) !== 123) return undefined;
  i++;
  const out: Member[] = [];
  ws();
  if (s.charCodeAt(i) === 125) return out;
  for (;;) {
    ws();
    if (s.charCodeAt(i) !== 34) return undefined;
    const start = i;
    if (!str()) return undefined;
    const rawKey = s.slice(start + 1, i - 1);
    const key = rawKey.indexOf('\\') < 0 ? rawKey : (JSON.parse(s.slice(start, i)) as string);
    ws();
    if (s.charCodeAt(i) !== 58) return undefined;
    i++;
    ws();
    const vStart = i;
    if (!value()) return undefined;
    out.push({ key, start, vStart, end: i });
    ws();
    const c = s.charCodeAt(i);
    i++;
    if (c === 44) continue;
    if (c === 125) return out;
    return undefined;
  }
}

/** RFC 4180 records of a stream, each with the line it starts on. */
export async function* csvRows(stream: Readable): AsyncGenerator<{ line: number; fields: string[] }> {
  stream.setEncoding('utf8');
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let startLine = 1;
  let any = false;
  for await (const chunk of stream as AsyncIterable<string>) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (quoted) {
        if (c === '"') {
          quoted = false;
          afterQuote = true;
        } else {
          if (c === '\n') line++;
          field += c;
        }
        continue;
      }
      if (c === '"') {
        if (afterQuote) field += '"';
        else if (field !== '') throw new WireError(`line ${line}`, 'a quote inside an unquoted field');
        quoted = true;
        afterQuote = false;
        any = true;
        continue;
      }
      afterQuote = false;
      if (c === ',') {
        fields.push(field);
        field = '';
        any = true;
      } else if (c === '\n') {
        if (field.endsWith('\r')) field = field.slice(0, -1);
        fields.push(field);
        if (any || fields.length > 1 || fields[0] !== '') yield { line: startLine, fields };
        fields = [];
        field = '';
        any = false;
        line++;
        startLine = line;
      } else {
        field += c;
        any = true;
      }
    }
  }
  if (quoted) throw new WireError(`line ${startLine}`, 'an unterminated quoted field');
  if (any || field !== '') {
    fields.push(field.endsWith('\r') ? field.slice(0, -1) : field);
    yield { line: startLine, fields };
  }
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function csvNumber(v: string, field: string): ExactNumber {
  const t = v.trim();
  if (!NUMBER.test(t)) throw new WireError(field, `must be a number, got "${t.slice(0, 40)}"`);
  return new ExactNumber(t);
}

function csvDate(v: string): ExactNumber {
  const t = v.trim();
  if (/^-?\d+$/.test(t)) return new ExactNumber(t);
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(t)) {
    const ms = Date.parse(t.length === 10 ? `${t}T00:00:00Z` : t);
    if (Number.isFinite(ms)) return new ExactNumber(String(ms));
  }
  throw new WireError('date', `must be epoch milliseconds or an ISO date, got "${t.slice(0, 40)}"`);
}

/** csv: a header row naming account,externalId,amount,date,description,type[,pending,balance,reservedAmount,payload,platformId]. */
export async function* csvRecords(file: string): AsyncGenerator<InputRecord> {
  let header: string[] | undefined;
  const rows = csvRows(open(file));
  for (;;) {
    let next: IteratorResult<{ line: number; fields: string[] }>;
    try {
      next = await rows.next();
    } catch (err) {
      if (!(err instanceof WireError)) throw err;
      yield { line: Number(/\d+/.exec(err.field)?.[0] ?? 0), error: err.message.replace(/^line \d+: /, ''), text: '' };
      return;
    }
    if (next.done) return;
    const { line, fields } = next.value;
    if (!header) {
      header = fields.map((f) => f.trim().replace(/^\uFEFF/, ''));
      const missing = ['account', 'externalId', 'amount', 'date', 'description', 'type'].filter(
        (h) => !header!.includes(h),
      );
      if (missing.length > 0) {
        yield { line, error: `the header row lacks ${missing.join(', ')}`, text: fields.join(',') };
        return;
      }
      continue;
    }
    try {
      if (fields.length !== header.length)
        throw new WireError('row', `has ${fields.length} fields, the header ${header.length}`);
      const row: Record<string, string> = {};
      header.forEach((h, i) => (row[h] = fields[i]!));
      const wire: Obj = {
        externalId: row.externalId,
        amount: csvNumber(row.amount!, 'amount'),
        date: csvDate(row.date!),
        description: row.description,
        type: row.type?.trim(),
      };
      if (row.pending !== undefined && row.pending.trim() !== '') {
        const p = row.pending.trim().toLowerCase();
        if (p !== 'true' && p !== 'false')
          throw new WireError('pending', `must be true or false, got "${row.pending.slice(0, 20)}"`);
        wire.pending = p === 'true';
      }
      if (row.platformId) wire.platformId = row.platformId;
      if (row.payload !== undefined && row.payload.trim() !== '') {
        try {
          wire.payload = parseExactJson(row.payload);
        } catch (err) {
          throw new WireError('payload', `is not JSON: ${(err as Error).message}`);
        }
      }
      const tx = validateTransaction(wire);
      const rec: InputRecord = { line, account: row.account?.trim(), tx, wire };
      if (!rec.account) throw new WireError('account', 'is required');
      if (row.balance !== undefined && row.balance.trim() !== '') rec.balance = csvNumber(row.balance, 'balance');
      if (row.reservedAmount !== undefined && row.reservedAmount.trim() !== '')
        rec.reservedAmount = csvNumber(row.reservedAmount, 'reservedAmount');
      yield rec;
    } catch (err) {
      yield { line, error: message(err), text: fields.join(',') };
    }
  }
}

// ---- json: a small parser that remembers the line each object starts on ---------------------

export class LineJson {
  private i = 0;
  private line = 1;
  readonly lineOf = new WeakMap<object, number>();
  constructor(private readonly s: string) {}

  parse(): unknown {
    this.ws();
    let v: unknown;
    try {
      v = this.value();
    } catch (err) {
      if (err instanceof RangeError) this.fail('nested too deeply');
      throw err;
    }
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
      if (c === 10) this.line++;
      else if (c !== 32 && c !== 9 && c !== 13) return;
      this.i++;
    }
  }

  private value(): unknown {
    const c = this.s[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === 't' && this.s.startsWith('true', this.i)) return ((this.i += 4), true);
    if (c === 'f' && this.s.startsWith('false', this.i)) return ((this.i += 5), false);
    if (c === 'n' && this.s.startsWith('null', this.i)) return ((this.i += 4), null);
    const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    m.lastIndex = this.i;
    const hit = m.exec(this.s);
    if (!hit) this.fail(c === undefined ? 'unexpected end of input' : `unexpected character ${JSON.stringify(c)}`);
    this.i += hit[0].length;
    return new ExactNumber(hit[0]);
  }

  private object(): Obj {
    const o: Obj = {};
    this.lineOf.set(o, this.line);
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') return (this.i++, o);
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail('expected a property name in double quotes');
      const k = this.string();
      this.ws();
      if (this.s[this.i] !== ':') this.fail("expected ':' after a property name");
      this.i++;
      this.ws();
      o[k] = this.value();
      this.ws();
      const c = this.s[this.i];
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === '}') return (this.i++, o);
      this.fail("expected ',' or '}' in an object");
    }
  }

  private array(): unknown[] {
    const a: unknown[] = [];
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') return (this.i++, a);
    for (;;) {
      this.ws();
      a.push(this.value());
      this.ws();
      const c = this.s[this.i];
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === ']') return (this.i++, a);
      this.fail("expected ',' or ']' in an array");
    }
  }

  private string(): string {
    const m = /"(?:[^"\\\n\u0000-\u001f]|\\.)*"/y;
    m.lastIndex = this.i;
    const hit = m.exec(this.s);
    if (!hit) this.fail('malformed string');
    this.i += hit[0].length;
    try {
      return JSON.parse(hit[0]) as string;
    } catch {
      return this.fail('malformed string escape');
    }
  }
}

export class JsonLineError extends Error {
  constructor(
    readonly line: number,
    msg: string,
  ) {
    super(msg);
  }
}

/** json: a CreateTransactionAccountContainer read whole (bounded), records in file order. */
export async function* jsonRecords(file: string): AsyncGenerator<InputRecord> {
  const size = (await stat(file)).size;
  if (size > MAX_JSON_BYTES) {
    yield {
      line: 1,
      error: `the JSON file is larger than ${MAX_JSON_BYTES >> 20} MB: convert it to ndjson (one transaction a line) to stream it`,
      text: '',
    };
    return;
  }
  let text = '';
  for await (const c of open(file).setEncoding('utf8') as AsyncIterable<string>) text += c;
  const p = new LineJson(text);
  let root: unknown;
  try {
    root = p.parse();
  } catch (err) {
    if (err instanceof JsonLineError) {
      yield { line: err.line, error: `malformed JSON: ${err.message}`, text: '' };
      return;
    }
    throw err;
  }
  const lineOf = (v: unknown) => (isObj(v) ? (p.lineOf.get(v) ?? 1) : 1);
  if (!isObj(root) || !Array.isArray(root.transactionAccounts)) {
    yield {
      line: lineOf(root),
      error: 'expected a CreateTransactionAccountContainer: {"type": ..., "transactionAccounts": [...]}',
      text: '',
    };
    return;
  }
  const type = typeof root.type === 'string' ? root.type : undefined;
  for (const [i, ta] of root.transactionAccounts.entries()) {
    let account: string;
    let balance: ExactNumber | undefined;
    let reservedAmount: ExactNumber | undefined;
    try {
      const a = obj(ta, `transactionAccounts[${i}]`);
      account = id(a, 'externalId', `transactionAccounts[${i}].`)!;
      amount(a, 'balance', `transactionAccounts[${i}].`, true);
      balance = a.balance as ExactNumber;
      if (a.reservedAmount !== undefined && a.reservedAmount !== null) {
        amount(a, 'reservedAmount', `transactionAccounts[${i}].`, true);
        reservedAmount = a.reservedAmount as ExactNumber;
      }
      if (!Array.isArray(a.transactions))
        throw new WireError(`transactionAccounts[${i}].transactions`, 'is required (an array)');
    } catch (err) {
      yield { line: lineOf(ta), error: message(err), text: '' };
      continue;
    }
    for (const t of (ta as Obj).transactions as unknown[]) {
      try {
        const tx = validateTransaction(t);
        yield { line: lineOf(t), account, balance, reservedAmount, tx, wire: t as Obj, type };
      } catch (err) {
        yield { line: lineOf(t), error: message(err), text: isObj(t) ? '' : String(t) };
      }
    }
  }
}

/** Records in batches; csv and json records carry their wire JSON in mode 'send'. */
export async function* records(
  file: string,
  format: InputFormat,
  mode: ReadMode = 'exact',
): AsyncGenerator<InputRecord[]> {
  if (format === 'ndjson') {
    yield* ndjsonRecords(file, mode);
    return;
  }
  let batch: InputRecord[] = [];
  for await (const r of format === 'json' ? jsonRecords(file) : csvRecords(file)) {
    if (mode === 'send' && r.error === undefined) {
      r.externalId = r.tx!.externalId;
      r.json = stringifyExact(r.wire!);
    }
    batch.push(r);
    if (batch.length >= 512) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** --accounts FILE: NDJSON of AccountEntity, for the balances of ndjson and csv input. */
export async function readAccountsFile(
  file: string,
): Promise<Map<string, { balance: ExactNumber; reservedAmount?: ExactNumber }>> {
  const out = new Map<string, { balance: ExactNumber; reservedAmount?: ExactNumber }>();
  for await (const { line, text } of lines(open(file))) {
    if (text.trim() === '') continue;
    try {
      const o = obj(parseExactJson(text), 'line');
      const a = validateAccount(o);
      out.set(a.externalId, {
        balance: o.balance as ExactNumber,
        reservedAmount: o.reservedAmount as ExactNumber | undefined,
      });
    } catch (err) {
      throw new InputError(file, line, message(err));
    }
  }
  return out;
}

export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    msg: string,
  ) {
    super(`${file}:${line}: ${msg}`);
  }
}

/** Reads a whole JSON file (numbers exact); a syntax or shape error is an InputError with its line. */
export function parseJsonFile(text: string, file: string): { value: unknown; lineOf: (v: unknown) => number } {
  const p = new LineJson(text);
  try {
    const value = p.parse();
    return { value, lineOf: (v) => (isObj(v) ? (p.lineOf.get(v) ?? 1) : 1) };
  } catch (err) {
    if (err instanceof JsonLineError) throw new InputError(file, err.line, `malformed JSON: ${err.message}`);
    throw err;
  }
}
