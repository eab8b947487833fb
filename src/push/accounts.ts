// AccountEntity input, read alike by `connector accounts push --file` and `connector push --accounts`:
// json ({"accounts": [...]} or an array), ndjson (one a line) or csv (a header row naming
// externalId,name,number,balance,type[,availableCredit,reservedAmount,closed,exclusion,flags,payload]).
// Numbers stay as written; members bankctl does not know pass through.
import {
  ExactNumber,
  notANumber,
  NUMBER_TEXT,
  isObj,
  obj,
  parseExactJson,
  validateAccount,
  WireError,
  type Obj,
} from '../contract/connector-wire.js';
import { csvRows, namedTwice } from './csv.js';
import { JsonLineError, parseLineJson } from './json.js';
import { lines } from './ndjson.js';
import { message } from './records.js';
import { textChunks } from './text.js';
import { NotUtf8Error } from '../fs/utf8.js';
import { InputError, type InputFormat } from './input.js';

export interface AccountInput {
  line: number;
  /** The account as it goes on the wire (numbers as written). */
  wire: Obj;
  externalId: string;
  balance: ExactNumber;
  reservedAmount?: ExactNumber;
}

export class AccountsError extends Error {
  constructor(
    readonly line: number,
    msg: string,
  ) {
    super(msg);
  }
}

function checked(line: number, v: unknown, path = ''): AccountInput {
  try {
    const o = obj(v, path || 'account');
    const a = validateAccount(o, path);
    const num = (x: unknown) => (x instanceof ExactNumber ? x : new ExactNumber(String(x)));
    const reserved = o.reservedAmount === undefined || o.reservedAmount === null ? undefined : num(o.reservedAmount);
    return { line, wire: o, externalId: a.externalId, balance: num(o.balance), reservedAmount: reserved };
  } catch (err) {
    throw new AccountsError(line, message(err));
  }
}

function fromJson(text: string): AccountInput[] {
  let parsed: ReturnType<typeof parseLineJson>;
  try {
    parsed = parseLineJson(text);
  } catch (err) {
    if (err instanceof JsonLineError) throw new AccountsError(err.line, `malformed JSON: ${err.message}`);
    throw err;
  }
  const { value, lineOf } = parsed;
  const list = Array.isArray(value)
    ? value
    : isObj(value) && Array.isArray(value.accounts)
      ? value.accounts
      : undefined;
  if (!list) throw new AccountsError(lineOf(value), 'expected {"accounts": [AccountEntity...]}');
  return list.map((a, i) => checked(lineOf(a), a, `accounts[${i}].`));
}

const CSV_REQUIRED = ['externalId', 'name', 'number', 'balance', 'type'];
const CSV_NUMBERS = new Set(['balance', 'availableCredit', 'reservedAmount']);

/** A csv cell as the JSON value it stands for: numbers exact, closed a boolean, flags and payload JSON. */
function csvCell(h: string, v: string): unknown {
  const t = v.trim();
  if (CSV_NUMBERS.has(h)) {
    if (!NUMBER_TEXT.test(t)) throw new WireError(h, notANumber(t, true));
    return new ExactNumber(t);
  }
  if (h === 'closed') {
    if (t !== 'true' && t !== 'false') throw new WireError(h, 'must be true or false');
    return t === 'true';
  }
  if (h === 'flags' || h === 'payload') {
    try {
      return parseExactJson(t);
    } catch (err) {
      throw new WireError(h, `is not JSON: ${(err as Error).message}`);
    }
  }
  return v;
}

async function fromCsv(file: string): Promise<AccountInput[]> {
  const out: AccountInput[] = [];
  let header: string[] | undefined;
  try {
    for await (const { line, fields } of csvRows(textChunks(file))) {
      if (!header) {
        header = fields.map((f) => f.trim());
        const missing = CSV_REQUIRED.filter((h) => !header!.includes(h));
        if (missing.length > 0) throw new AccountsError(line, `the header row lacks ${missing.join(', ')}`);
        const twice = namedTwice(header);
        if (twice) throw new AccountsError(line, twice);
        continue;
      }
      if (fields.length !== header.length)
        throw new AccountsError(line, `row: has ${fields.length} fields, the header ${header.length}`);
      const o: Obj = {};
      try {
        header.forEach((h, i) => {
          if (fields[i]!.trim() !== '') o[h] = csvCell(h, fields[i]!);
        });
      } catch (err) {
        throw new AccountsError(line, message(err));
      }
      out.push(checked(line, o));
    }
  } catch (err) {
    if (err instanceof WireError)
      throw new AccountsError(Number(/\d+/.exec(err.field)?.[0] ?? 1), err.message.replace(/^line \d+: /, ''));
    throw err;
  }
  return out;
}

async function fromNdjson(file: string): Promise<AccountInput[]> {
  const out: AccountInput[] = [];
  for await (const { line, text } of lines(file)) {
    if (text.trim() === '') continue;
    let v: unknown;
    try {
      v = parseExactJson(text);
    } catch (err) {
      throw new AccountsError(line, `malformed JSON: ${message(err)}`);
    }
    out.push(checked(line, v));
  }
  return out;
}

/** Every account of the input, checked, each externalId once; a problem is an InputError naming name:LINE. */
export async function readAccounts(
  file: string,
  format: InputFormat,
  name = file,
  text?: string,
): Promise<AccountInput[]> {
  try {
    return await readChecked(file, format, text);
  } catch (err) {
    if (err instanceof AccountsError) throw new InputError(name, err.line, err.message);
    if (err instanceof NotUtf8Error) throw new InputError(name, err.line, err.problem);
    throw err;
  }
}

async function readChecked(file: string, format: InputFormat, text?: string): Promise<AccountInput[]> {
  let list: AccountInput[];
  if (format === 'json') {
    let t = text;
    if (t === undefined) {
      t = '';
      for await (const c of textChunks(file)) t += c;
    }
    list = fromJson(t);
  } else if (format === 'csv') list = await fromCsv(file);
  else list = await fromNdjson(file);
  const seen = new Map<string, number>();
  for (const a of list) {
    const first = seen.get(a.externalId);
    if (first !== undefined)
      throw new AccountsError(a.line, `account "${a.externalId}" appears twice (first on line ${first})`);
    seen.set(a.externalId, a.line);
  }
  return list;
}
