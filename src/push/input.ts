// Input of `connector push` and `connector verify`: json (a CreateTransactionAccountContainer, read
// whole up to a bound), ndjson (one transaction a line) and csv (a header row), each as a stream of
// records that carry their line number, so a malformed one is reported as FILE:LINE.
import type { Hash } from 'node:crypto';
import { stringifyExact, WireError } from '../contract/connector-wire.js';
import { csvRecords } from './csv.js';
import { jsonRecords } from './json.js';
import { ndjsonRecords } from './ndjson.js';
import type { InputRecord } from './records.js';

export type { InputRecord } from './records.js';
export { MAX_JSON_BYTES } from './json.js';

export type InputFormat = 'json' | 'ndjson' | 'csv';

/** validate: every record checked (numbers exact); send: the wire JSON of each, nothing re-checked. */
export type ReadMode = 'validate' | 'send';

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

/** Records in batches; csv and json records carry their wire JSON in mode 'send'. */
export async function* records(
  file: string,
  format: InputFormat,
  mode: ReadMode = 'validate',
  hash?: Hash,
): AsyncGenerator<InputRecord[]> {
  if (format === 'ndjson') {
    yield* ndjsonRecords(file, mode);
    return;
  }
  let batch: InputRecord[] = [];
  for await (const r of format === 'json' ? jsonRecords(file, hash) : csvRecords(file, hash)) {
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

export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    msg: string,
  ) {
    super(`${file}:${line}: ${msg}`);
  }
}
