// Stage 1 of a push, the validation pass: every record of the input checked before anything is sent
// (all problems reported, up to a cap, each as FILE:LINE), each account's balance learned, duplicate
// externalIds found, the input's content hashed for the checkpoint. Rejected records go to the
// rejects file under --skip-invalid. Data flows one way: input file -> Validated.
import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { INGEST_TYPES, type Obj } from '../contract/connector-wire.js';
import { ByBytes } from './by-bytes.js';
import { hashKey, idOfBytes, idOfString, IdRuns, repeatedHashes } from './ids.js';
import { eachLine } from './lines.js';
import { InputError, records } from './input.js';
import { LineScan, scanLine } from './ndjson-scan.js';
import { declinedRecord } from './ndjson.js';
import { NotUtf8Error } from '../fs/utf8.js';
import { Problems } from './problems.js';
import { merge, scanFile, Tally, type SegmentAccount, type SegmentResult } from './scan-segment.js';
import type { AccountInfo, IngestType, PushOptions } from './types.js';
import { collectYoung } from '../heap.js';

/** Hash runs this large are handed back by a young GC at once (heap.ts collectYoung), not left for later. */
const LARGE_RUNS = 2 * 1024 * 1024;

export interface Validated {
  accounts: ByBytes<AccountInfo>;
  valid: number;
  rejected: number;
  type: IngestType;
  /** json: the container's members bankctl does not know, passed through as written. */
  containerExtra?: Obj;
  rejectedLines: Set<number>;
  /** sha256 of the input's bytes, when a checkpoint asked for it. */
  contentHash?: string;
}

/** The rejects file of --skip-invalid, opened on the first rejected record. */
class Rejects {
  private out?: WriteStream;
  private error?: Error;
  readonly lines = new Set<number>();

  constructor(private readonly path: string) {}

  async write(line: number, error: string, text?: string): Promise<void> {
    this.lines.add(line);
    if (!this.out) {
      this.out = createWriteStream(this.path, { mode: 0o600 });
      this.out.on('error', (err) => (this.error = err));
    }
    if (this.error)
      throw new InputError(
        this.path,
        1,
        `cannot write the rejects: ${(this.error as NodeJS.ErrnoException).code ?? this.error.message}`,
      );
    if (!this.out.write(`${JSON.stringify({ line, error, text })}\n`))
      await new Promise<void>((res) => this.out!.once('drain', () => res()));
  }

  async close(): Promise<void> {
    const w = this.out;
    if (!w) return;
    await new Promise<void>((res) => {
      w.once('error', () => res());
      w.end(() => res());
    });
  }
}

interface Found {
  valid: number;
  accounts: SegmentAccount[];
  type?: string;
  containerExtra?: Obj;
  hash?: string;
  accountExtra: Map<string, Obj>;
}

/** csv and json: the general reader, record by record. */
async function validateRecords(
  o: PushOptions,
  problems: Problems,
  ids: IdRuns,
  reject?: Rejects,
  signal?: AbortSignal,
  hashed?: boolean,
): Promise<Found> {
  const tally = new Tally();
  const hash = hashed ? createHash('sha256') : undefined;
  const found: Found = { valid: 0, accounts: [], accountExtra: new Map() };
  reading: for await (const batch of records(o.file, o.format, 'validate', hash)) {
    for (const r of batch) {
      if (signal?.aborted) break reading;
      if (r.error !== undefined) {
        if (reject) await reject.write(r.line, r.error, r.text);
        else problems.add(r.line, r.error);
        continue;
      }
      found.type ??= r.type;
      found.containerExtra ??= r.containerExtra;
      if (r.accountExtra && !found.accountExtra.has(r.account!)) found.accountExtra.set(r.account!, r.accountExtra);
      idOfString(r.tx!.externalId, ids.sink);
      tally.record(r.account!, r.line, r.balance?.text, r.reservedAmount?.text);
    }
  }
  return { ...found, valid: tally.valid, accounts: tally.accounts.list, hash: hash?.digest('hex') };
}

/** ndjson: the byte scanner, in ranges side by side for a large file. */
async function validateNdjson(
  o: PushOptions,
  problems: Problems,
  ids: IdRuns,
  reject?: Rejects,
  signal?: AbortSignal,
  hashed?: boolean,
): Promise<Found> {
  const parts: SegmentResult[] = await scanFile(o.file, {
    onReject: reject ? (line, error, text) => reject.write(line, error, text) : undefined,
    signal,
    hash: hashed,
    ids: ids.sink,
  });
  const r = merge(parts, (runs) => ids.adopt(runs));
  problems.addAll(r.problems, r.problemCount, 0);
  return { valid: r.valid, accounts: r.accounts, hash: r.hash, accountExtra: new Map() };
}

/** Each externalId whose hash is one of `hashes`, with the lines it is on (in file order). */
async function linesOfIds(o: PushOptions, hashes: Set<string>): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  let hit = false;
  const mark = (h1: number, h2: number): void => void (hit = hashes.has(hashKey(h1, h2)));
  const note = (id: string, line: number): void => {
    const lines = out.get(id);
    if (lines) lines.push(line);
    else out.set(id, [line]);
  };
  if (o.format !== 'ndjson') {
    for await (const batch of records(o.file, o.format, 'validate'))
      for (const r of batch) {
        if (!r.tx) continue;
        idOfString(r.tx.externalId, mark);
        if (hit) note(r.tx.externalId, r.line);
      }
    return out;
  }
  const sc = new LineScan();
  await eachLine(o.file, (b, s, e, line) => {
    if (scanLine(b, s, e, sc)) {
      idOfBytes(b, sc.externalIdStart, sc.externalIdEnd, mark);
      if (hit) note(b.toString('utf8', sc.externalIdStart, sc.externalIdEnd), line);
      return;
    }
    const r = declinedRecord(b, s, e, line);
    if (!r?.tx) return;
    idOfString(r.tx.externalId, mark);
    if (hit) note(r.tx.externalId, line);
  });
  return out;
}

/**
 * The externalIds that occur more than once: hashes seen twice are the candidates, and only their
 * ids are read again and compared as text. Each later occurrence is a problem (or a reject).
 */
async function duplicates(o: PushOptions, runs: Uint32Array[], problems: Problems, reject?: Rejects): Promise<number> {
  const hashes = repeatedHashes(runs);
  if (hashes.size === 0) return 0;
  const found: Array<[first: number, later: number, id: string]> = [];
  for (const [id, lines] of await linesOfIds(o, hashes))
    for (const later of lines.slice(1)) found.push([lines[0]!, later, id]);
  found.sort((a, b) => a[1] - b[1]);
  for (const [first, later, id] of found) {
    const msg = `externalId "${id}" appears twice: on line ${first} and on line ${later}`;
    if (reject) await reject.write(later, msg);
    else problems.add(later, msg);
  }
  problems.sorted();
  return found.length;
}

/** Accounts with their balances: given on the lines, else from --accounts. */
function accountsOf(o: PushOptions, found: Found): ByBytes<AccountInfo> {
  const accounts = new ByBytes<AccountInfo>();
  for (const sa of found.accounts) {
    const given = o.accounts?.get(sa.externalId);
    const balance = sa.balance ?? given?.balance.text;
    if (balance === undefined)
      throw new InputError(
        o.displayName,
        sa.firstLine,
        `no balance for account "${sa.externalId}": give --accounts FILE (AccountEntity as ndjson, json or csv) or a balance field`,
      );
    const reservedAmount = sa.reservedAmount ?? given?.reservedAmount?.text;
    const info = { externalId: sa.externalId, index: accounts.list.length, balance, reservedAmount };
    accounts.add(sa.externalId, {
      ...info,
      extra: found.accountExtra.get(sa.externalId),
      transactions: sa.transactions,
      delivered: 0,
      duplicates: 0,
      gone: 0,
    });
  }
  return accounts;
}

function typeOf(o: PushOptions, found: Found): IngestType {
  if (o.type) return o.type;
  if (found.type !== undefined && !(INGEST_TYPES as readonly string[]).includes(found.type))
    throw new InputError(o.displayName, 1, `type must be one of ${INGEST_TYPES.join(', ')}, got "${found.type}"`);
  // HISTORICAL was the default until the reference deprecated it (its balances are ignored)
  return (found.type as IngestType | undefined) ?? 'BATCH';
}

/** Ctrl-C while the input was being checked: nothing was sent, the push ends as interrupted. */
export class ValidationInterrupted extends Error {
  constructor() {
    super('interrupted while checking the input');
  }
}

/** Stage 1: the whole input checked; throws an InputError listing the problems (without --skip-invalid). */
export async function validate(o: PushOptions, signal: AbortSignal, hashed: boolean): Promise<Validated> {
  const problems = new Problems();
  const ids = new IdRuns();
  const reject = o.rejectsFile ? new Rejects(o.rejectsFile) : undefined;
  let found: Found;
  try {
    const pass = o.format === 'ndjson' ? validateNdjson : validateRecords;
    // a stopped scan (a worker terminated, a read cut short) says nothing about the input
    found = await pass(o, problems, ids, reject, signal, hashed).catch((err: unknown) => {
      if (signal.aborted) throw new ValidationInterrupted();
      throw err instanceof NotUtf8Error ? new InputError(o.displayName, err.line, err.problem) : err;
    });
    if (signal.aborted) throw new ValidationInterrupted();
    const dups = await duplicates(o, ids.runs(), problems, reject);
    found.valid -= reject ? dups : 0;
  } finally {
    if (ids.dispose() >= LARGE_RUNS) collectYoung();
    await reject?.close();
  }
  if (problems.count > 0) {
    const first = problems.list[0]!;
    const err = new InputError(o.displayName, first.line, first.message);
    if (problems.count > 1)
      err.message = `${problems.count} problem(s) in ${o.displayName}, nothing sent:\n${problems.text(o.displayName)}`;
    throw err;
  }
  const rejectedLines = reject?.lines ?? new Set<number>();
  return {
    accounts: accountsOf(o, found),
    valid: found.valid,
    rejected: rejectedLines.size,
    type: typeOf(o, found),
    containerExtra: found.containerExtra,
    rejectedLines,
    contentHash: found.hash,
  };
}
