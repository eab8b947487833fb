// The general path of ndjson input (one transaction a line, plus its `account` and optionally
// `balance`, `reservedAmount`): lines the byte scanner (ndjson-scan.ts) declines, and every line
// of `connector verify` when it needs the parsed records.
import { JsonSyntaxError, obj, parseExactJson, WireError } from '../contract/connector-wire.js';
import { dateFromText } from './dates.js';
import { stringMember, topLevelMembers } from './members.js';
import { ACCOUNT_FIELDS, lineRecord, message, type InputRecord } from './records.js';
import { CR, QUOTE } from './bytes.js';
import { textChunks } from './text.js';
import { declinedText } from './ndjson-scan.js';
import { lineUtf8Problem } from '../fs/utf8.js';

/** Lines of a file in batches (one per chunk read), split by hand, with their 1-based numbers. */
export async function* lineBatches(file: string): AsyncGenerator<Array<{ line: number; text: string }>> {
  let rest = '';
  let n = 0;
  for await (const chunk of textChunks(file)) {
    const text = rest + chunk;
    const batch: Array<{ line: number; text: string }> = [];
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      n++;
      const end = nl > start && text.charCodeAt(nl - 1) === CR ? nl - 1 : nl;
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

export async function* lines(file: string): AsyncGenerator<{ line: number; text: string }> {
  for await (const batch of lineBatches(file)) yield* batch;
}

/** A byte order mark where JSON cannot have one: named, since editors do not show it. */
function bomError(text: string): string | undefined {
  const at = text.indexOf('\uFEFF');
  if (at < 0) return undefined;
  return `a byte order mark (U+FEFF) at column ${at + 1}: files joined together? Remove it`;
}

/** A line checked with exact numbers (the general path of the validation pass, and verify). */
export function validateLine(line: number, text: string): InputRecord {
  try {
    let v: unknown;
    try {
      v = parseExactJson(text);
    } catch (err) {
      const bom = err instanceof JsonSyntaxError ? bomError(text) : undefined;
      if (bom) throw new JsonSyntaxError(bom);
      if (
        err instanceof JsonSyntaxError &&
        !err.message.startsWith('malformed JSON') &&
        !err.message.includes('\\u0000')
      )
        throw new JsonSyntaxError(`malformed JSON: ${err.message}`);
      throw err;
    }
    const twice = repeatedKey(text);
    if (twice !== undefined)
      throw new WireError(
        'line',
        `"${twice.slice(0, 40)}" appears twice in the line: readers differ on which one counts, so it is refused`,
      );
    return lineRecord(line, obj(v, 'line'));
  } catch (err) {
    return { line, error: message(err), text };
  }
}

/** A member name the line's object has twice (a value would silently replace the other), if any. */
function repeatedKey(text: string): string | undefined {
  const members = topLevelMembers(text);
  if (!members || members.length < 2) return undefined;
  const seen = new Set<string>();
  for (const m of members) {
    if (seen.has(m.key)) return m.key;
    seen.add(m.key);
  }
  return undefined;
}

const CHANGED = 'the line changed since it was checked';

/** The second pass: the line as written, less the account's own members; no parse of numbers. */
export function sendRecord(line: number, text: string): InputRecord {
  const members = topLevelMembers(text);
  if (!members) return { line, error: CHANGED, text };
  let account: string | undefined;
  let externalId: string | undefined;
  let pendingIds: string[] | undefined;
  const kept: string[] = [];
  for (const m of members) {
    if (m.key === 'account') account = stringMember(text, m);
    else if (ACCOUNT_FIELDS.has(m.key)) continue;
    else if (m.key === 'date' && text.charCodeAt(m.vStart) === QUOTE) {
      // an ISO date (checked in the first pass) goes as its epoch milliseconds
      kept.push(`"date":${dateFromText(stringMember(text, m)!).text}`);
    } else {
      if (m.key === 'externalId') externalId = stringMember(text, m);
      else if (m.key === 'payload') pendingIds = pendingIdsOf(text.slice(m.vStart, m.end));
      kept.push(text.slice(m.start, m.end));
    }
  }
  if (account === undefined || externalId === undefined) return { line, error: CHANGED, text };
  return { line, account, externalId, json: `{${kept.join(',')}}`, ...(pendingIds ? { pendingIds } : {}) };
}

/** The PENDING_IDS of a payload's text (checked in the first pass), or undefined. */
function pendingIdsOf(payload: string): string[] | undefined {
  if (!payload.includes('PENDING_IDS')) return undefined;
  const ids = (JSON.parse(payload) as { PENDING_IDS?: unknown }).PENDING_IDS;
  return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : undefined;
}

/** A line the byte scanner declined, checked by the general path; undefined for a blank line. */
export function declinedRecord(b: Buffer, s: number, e: number, line: number): InputRecord | undefined {
  const text = declinedText(b, s, e);
  if (text === undefined) return undefined;
  const notUtf8 = lineUtf8Problem(b, s, e);
  return notUtf8 === undefined ? validateLine(line, text) : { line, error: notUtf8, text };
}

/** ndjson records in batches: checked (validate) or cut for sending (send). */
export async function* ndjsonRecords(
  file: string,
  mode: 'validate' | 'send' = 'validate',
): AsyncGenerator<InputRecord[]> {
  for await (const batch of lineBatches(file)) {
    const out: InputRecord[] = [];
    for (const { line, text } of batch) {
      if (text.trim() === '') continue;
      out.push(mode === 'send' ? sendRecord(line, text) : validateLine(line, text));
    }
    yield out;
  }
}
