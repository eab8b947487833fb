// csv input: RFC 4180 records with a header row naming
// account,externalId,amount,date,description,type[,pending,balance,reservedAmount,payload,platformId].
import {
  ExactNumber,
  NUMBER_TEXT,
  notANumber,
  WireError,
  parseExactJson,
  type Obj,
} from '../contract/connector-wire.js';
import { textChunks } from './text.js';
import { checkTransaction, message, type InputRecord } from './records.js';
import type { Hash } from 'node:crypto';

/** A field longer than this is an error (an unterminated quote would otherwise swallow the file). */
export const MAX_FIELD_CHARS = 1 << 20;

class CsvState {
  fields: string[] = [];
  field = '';
  quoted = false;
  afterQuote = false;
  line = 1;
  startLine = 1;
  any = false;

  append(text: string): void {
    this.field += text;
    if (this.field.length > MAX_FIELD_CHARS)
      throw new WireError(
        `line ${this.startLine}`,
        `a field longer than ${MAX_FIELD_CHARS >> 20} MB${this.quoted ? ': an unterminated quoted field?' : ''}`,
      );
  }

  endRow(): { line: number; fields: string[] } | undefined {
    if (this.field.endsWith('\r')) this.field = this.field.slice(0, -1);
    this.fields.push(this.field);
    const row =
      this.any || this.fields.length > 1 || this.fields[0] !== ''
        ? { line: this.startLine, fields: this.fields }
        : undefined;
    this.fields = [];
    this.field = '';
    this.any = false;
    this.line++;
    this.startLine = this.line;
    return row;
  }
}

/** Inside quotes: the text up to the closing quote (newlines counted); returns where it stopped. */
function quotedRun(st: CsvState, chunk: string, i: number): number {
  const close = chunk.indexOf('"', i);
  const end = close < 0 ? chunk.length : close;
  const run = chunk.slice(i, end);
  for (let k = run.indexOf('\n'); k >= 0; k = run.indexOf('\n', k + 1)) st.line++;
  st.append(run);
  if (close >= 0) {
    st.quoted = false;
    st.afterQuote = true;
    return close + 1;
  }
  return end;
}

/** One character outside quotes; a finished row is pushed to rows. */
function plainChar(st: CsvState, c: string, rows: Array<{ line: number; fields: string[] }>): void {
  if (c === '"') {
    if (st.afterQuote) st.append('"');
    else if (st.field !== '') throw new WireError(`line ${st.line}`, 'a quote inside an unquoted field');
    st.quoted = true;
    st.afterQuote = false;
    st.any = true;
    return;
  }
  st.afterQuote = false;
  if (c === ',') {
    st.fields.push(st.field);
    st.field = '';
    st.any = true;
  } else if (c === '\n') {
    const row = st.endRow();
    if (row) rows.push(row);
  } else {
    st.append(c);
    st.any = true;
  }
}

/** RFC 4180 records of text chunks, each with the line it starts on; memory bounded by MAX_FIELD_CHARS. */
export async function* csvRows(chunks: AsyncIterable<string>): AsyncGenerator<{ line: number; fields: string[] }> {
  const st = new CsvState();
  for await (const chunk of chunks) {
    const rows: Array<{ line: number; fields: string[] }> = [];
    for (let i = 0; i < chunk.length;) {
      if (st.quoted) i = quotedRun(st, chunk, i);
      else plainChar(st, chunk[i++]!, rows);
    }
    yield* rows;
  }
  if (st.quoted) throw new WireError(`line ${st.startLine}`, 'an unterminated quoted field');
  if (st.any || st.field !== '') {
    st.fields.push(st.field.endsWith('\r') ? st.field.slice(0, -1) : st.field);
    yield { line: st.startLine, fields: st.fields };
  }
}

function csvNumber(v: string, field: string): ExactNumber {
  const t = v.trim();
  if (!NUMBER_TEXT.test(t)) throw new WireError(field, notANumber(t, true));
  return new ExactNumber(t);
}

const REQUIRED = ['account', 'externalId', 'amount', 'date', 'description', 'type'];
const OPTIONAL = ['pending', 'balance', 'reservedAmount', 'payload', 'platformId'];
const KNOWN = new Set([...REQUIRED, ...OPTIONAL]);

/** What is wrong with a header row: a required column missing, one unknown (its values would be dropped) or twice. */
function headerProblem(header: string[]): string | undefined {
  const missing = REQUIRED.filter((h) => !header.includes(h));
  const unknown = header.filter((h) => !KNOWN.has(h));
  const stray = unknown.map((h) => JSON.stringify(h.slice(0, 40))).join(', ');
  if (missing.length > 0)
    return `the header row lacks ${missing.join(', ')}${stray ? ` and names ${stray} instead (column names are case-sensitive)` : ''}`;
  if (stray)
    return `the header row names ${stray}, not a column bankctl sends (its values would be dropped): the columns are ${[...KNOWN].join(', ')}`;
  return namedTwice(header);
}

/** A header row that names a column twice (the later cell would win unseen). */
export function namedTwice(header: string[]): string | undefined {
  const twice = header.filter((h, i) => header.indexOf(h) !== i);
  return twice.length > 0 ? `the header row names ${twice.join(', ')} twice` : undefined;
}

/** A row (by header) as the wire's transaction, with the account's members. */
function rowRecord(line: number, row: Record<string, string>): InputRecord {
  const wire: Obj = {
    externalId: row.externalId,
    amount: csvNumber(row.amount!, 'amount'),
    // a string: checkTransaction reads it (an ISO date) or checks it (epoch milliseconds)
    date: row.date!,
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
  // checkTransaction's wire has the date as epoch milliseconds
  const checked = checkTransaction(wire);
  const rec: InputRecord = { line, account: row.account?.trim(), tx: checked.tx, wire: checked.wire };
  if (!rec.account) throw new WireError('account', 'is required');
  if (row.balance !== undefined && row.balance.trim() !== '') rec.balance = csvNumber(row.balance, 'balance');
  if (row.reservedAmount !== undefined && row.reservedAmount.trim() !== '')
    rec.reservedAmount = csvNumber(row.reservedAmount, 'reservedAmount');
  return rec;
}

function bomIn(fields: string[]): boolean {
  return fields.some((f) => f.includes('\uFEFF'));
}

/** csv: a header row naming account,externalId,amount,date,description,type[,pending,balance,reservedAmount,payload,platformId]. */
export async function* csvRecords(file: string, hash?: Hash): AsyncGenerator<InputRecord> {
  let header: string[] | undefined;
  const rows = csvRows(textChunks(file, hash));
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
      header = fields.map((f) => f.trim());
      const problem = headerProblem(header);
      if (problem) {
        yield { line, error: problem, text: fields.join(',') };
        return;
      }
      continue;
    }
    // a blank line (a spreadsheet's export often ends with one) holds no record
    if (fields.length === 1 && fields[0]!.trim() === '') continue;
    try {
      if (bomIn(fields))
        throw new WireError('row', 'holds a byte order mark (U+FEFF): files joined together? Remove it');
      if (fields.length !== header.length)
        throw new WireError('row', `has ${fields.length} fields, the header ${header.length}`);
      const row: Record<string, string> = {};
      header.forEach((h, i) => (row[h] = fields[i]!));
      yield rowRecord(line, row);
    } catch (err) {
      yield { line, error: message(err), text: fields.join(',') };
    }
  }
}
