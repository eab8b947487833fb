// The validation pass of an ndjson push (every line checked, each account's balance learned, every
// externalId hashed) over a byte range of the file, and the same over a large file cut into ranges
// that worker threads scan side by side: nothing is sent during this pass, so the service is idle
// and the cores are free. The merged result is the one a single scan from the top would give: line
// numbers, problems in file order, accounts in order of first appearance, each one's last balance.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ByBytes, latin1, sameText } from './by-bytes.js';
import { LF } from './bytes.js';
import { idOfBytes, idOfString, IdRuns, type IdSink } from './ids.js';
import { eachLine, STOP } from './lines.js';
import { LineScan, scanLine } from './ndjson-scan.js';
import { declinedRecord } from './ndjson.js';
import { Problems, type Problem } from './problems.js';
import { embeddedModuleUrl } from '../single-executable.js';

export interface SegmentAccount {
  externalId: string;
  /** The line it first appears on. */
  firstLine: number;
  transactions: number;
  /** The last balance given on its lines, as written. */
  balance?: string;
  reservedAmount?: string;
}

export interface SegmentResult {
  /** Lines in the range (blank ones too). */
  lines: number;
  valid: number;
  accounts: SegmentAccount[];
  /** The first problems (up to the cap) and how many there are, when no onReject was given. */
  problems: Problem[];
  problemCount: number;
  /** sha256 of the range's bytes, when asked for. */
  hash?: string;
  /** A worker's externalIds, as sorted runs of hash pairs (ids.ts). */
  ids?: Uint32Array[];
}

/** The valid records of a first pass, by account: count, first line, last balances. */
export class Tally {
  readonly accounts = new ByBytes<SegmentAccount>();
  valid = 0;

  /** A valid record of the account externalId, with the balances it gives (as written). */
  record(externalId: string, line: number, balance?: string, reservedAmount?: string): void {
    let a = this.accounts.byKey.get(externalId);
    if (!a) this.accounts.add(externalId, (a = { externalId, firstLine: line, transactions: 0 }));
    if (balance !== undefined) a.balance = balance;
    if (reservedAmount !== undefined) a.reservedAmount = reservedAmount;
    a.transactions++;
    this.valid++;
  }

  /** The same for a line scanLine took, making strings only of what is new. */
  recordScanned(b: Buffer, sc: LineScan, line: number): void {
    const a = this.accounts.find(b, sc.accountStart, sc.accountEnd);
    if (!a) {
      const text = (s: number, e: number) => (s >= 0 ? latin1(b, s, e) : undefined);
      return this.record(
        latin1(b, sc.accountStart, sc.accountEnd),
        line,
        text(sc.balanceStart, sc.balanceEnd),
        text(sc.reservedStart, sc.reservedEnd),
      );
    }
    if (sc.balanceStart >= 0 && !sameText(b, sc.balanceStart, sc.balanceEnd, a.balance))
      a.balance = latin1(b, sc.balanceStart, sc.balanceEnd);
    if (sc.reservedStart >= 0 && !sameText(b, sc.reservedStart, sc.reservedEnd, a.reservedAmount))
      a.reservedAmount = latin1(b, sc.reservedStart, sc.reservedEnd);
    a.transactions++;
    this.valid++;
  }
}

/** A malformed record handed to onReject (--skip-invalid), in file order. */
export type OnReject = (line: number, error: string, text: string) => void | Promise<void>;

export interface SegmentOptions {
  start?: number;
  end?: number;
  onReject?: OnReject;
  signal?: AbortSignal;
  /** Hash the range's bytes (a checkpoint binds to them). */
  hash?: boolean;
  /** Where externalIds go; a worker collects them in a list. */
  ids?: IdSink;
}

/** Scans the lines of file's bytes [start, end); line numbers count from start. */
export async function scanSegment(file: string, o: SegmentOptions = {}): Promise<SegmentResult> {
  const tally = new Tally();
  const sc = new LineScan();
  const problems = new Problems();
  const hash = o.hash ? createHash('sha256') : undefined;
  const list = o.ids ? undefined : new IdRuns();
  const ids = o.ids ?? list!.sink;
  let lines = 0;
  const line = (b: Buffer, s: number, e: number, n: number) => {
    lines = n;
    if (o.signal?.aborted) return STOP;
    if (scanLine(b, s, e, sc)) {
      idOfBytes(b, sc.externalIdStart, sc.externalIdEnd, ids);
      return tally.recordScanned(b, sc, n);
    }
    const r = declinedRecord(b, s, e, n);
    if (r === undefined) return;
    if (r.error !== undefined) return o.onReject ? o.onReject(n, r.error, r.text!) : problems.add(n, r.error);
    idOfString(r.tx!.externalId, ids);
    tally.record(r.account!, n, r.balance?.text, r.reservedAmount?.text);
  };
  await eachLine(file, line, { start: o.start, end: o.end, hash });
  return {
    lines,
    valid: tally.valid,
    accounts: tally.accounts.list,
    problems: problems.list,
    problemCount: problems.count,
    hash: hash?.digest('hex'),
    ids: list?.runs(),
  };
}

/** Files smaller than this are scanned in one go: a worker costs tens of milliseconds to start. */
export const PARALLEL_MIN_BYTES = 16 * 1024 * 1024;
/** Ranges of a hashed scan: fixed, so the content hash does not depend on the machine's cores. */
const HASHED_RANGES = 4;

/** The worker's script, next to the bundle (dist/scan-worker.js); none when running from the sources. */
function workerScript(): URL | undefined {
  const embedded = embeddedModuleUrl('scan-worker.mjs');
  if (embedded) return embedded;
  const url = new URL('../scan-worker.js', import.meta.url);
  return import.meta.url.endsWith('.js') && existsSync(fileURLToPath(url)) ? url : undefined;
}

/** The offset just after the first newline at or after pos, or -1. */
async function newlineAfter(
  fh: Awaited<ReturnType<typeof open>>,
  pos: number,
  size: number,
  buf: Buffer,
): Promise<number> {
  while (pos < size) {
    const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) break;
    const nl = buf.subarray(0, bytesRead).indexOf(LF);
    if (nl >= 0) return pos + nl + 1;
    pos += bytesRead;
  }
  return -1;
}

/** Offsets just after a newline near each of ranges - 1 even cuts of the file. */
async function cuts(file: string, size: number, ranges: number): Promise<number[]> {
  const fh = await open(file, 'r');
  const out = [0];
  try {
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (let k = 1; k < ranges; k++) {
      const found = await newlineAfter(fh, Math.max(Math.floor((size * k) / ranges), out[out.length - 1]!), size, buf);
      if (found < 0 || found >= size) break;
      if (found > out[out.length - 1]!) out.push(found);
    }
  } finally {
    await fh.close();
  }
  out.push(size);
  return out;
}

function inWorker(script: URL, file: string, o: SegmentOptions): Promise<SegmentResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(script, { workerData: { file, start: o.start, end: o.end, hash: o.hash } });
    const abort = () => void w.terminate();
    o.signal?.addEventListener('abort', abort, { once: true });
    w.once('message', (r: SegmentResult) => resolve(r));
    w.once('error', reject);
    w.once('exit', (code) => {
      o.signal?.removeEventListener('abort', abort);
      // after a message this settles nothing; without one the worker died or was stopped
      reject(new Error(`the scan worker stopped (exit ${code})`));
    });
  });
}

export interface ScanFileOptions {
  onReject?: OnReject;
  signal?: AbortSignal;
  hash?: boolean;
  /** The main thread's ids (a worker's runs are handed to merge's caller). */
  ids: IdSink;
}

/**
 * The first pass over a whole file: in ranges side by side when the file is large, there are cores
 * to spare and the bundle's worker script is there; else in one go (always in one go with onReject,
 * so rejects are written in file order). The hash of a scan in ranges is the hash of the ranges'.
 */
export async function scanFile(file: string, o: ScanFileOptions): Promise<SegmentResult[]> {
  const script = workerScript();
  const size = (await stat(file)).size;
  const threads = Math.min(availableParallelism(), 4);
  if (o.onReject || !script || threads < 2 || size < PARALLEL_MIN_BYTES) return [await scanSegment(file, o)];
  const at = await cuts(file, size, o.hash ? HASHED_RANGES : threads);
  return Promise.all(
    at
      .slice(0, -1)
      .map((start, k) =>
        k === 0
          ? scanSegment(file, { start, end: at[k + 1], signal: o.signal, hash: o.hash, ids: o.ids })
          : inWorker(script, file, { start, end: at[k + 1]!, signal: o.signal, hash: o.hash }),
      ),
  );
}

/** Segment results in file order -> the result of one scan from the top; worker ids go to sink. */
export function merge(parts: SegmentResult[], sink?: (runs: Uint32Array[]) => void): SegmentResult {
  const accounts = new Map<string, SegmentAccount>();
  const problems = new Problems();
  let offset = 0;
  let valid = 0;
  for (const p of parts) {
    valid += p.valid;
    for (const sa of p.accounts) {
      const a = accounts.get(sa.externalId);
      if (!a) {
        accounts.set(sa.externalId, { ...sa, firstLine: sa.firstLine + offset });
        continue;
      }
      a.transactions += sa.transactions;
      if (sa.balance !== undefined) a.balance = sa.balance;
      if (sa.reservedAmount !== undefined) a.reservedAmount = sa.reservedAmount;
    }
    problems.addAll(p.problems, p.problemCount, offset);
    if (p.ids) sink?.(p.ids);
    offset += p.lines;
  }
  const hash =
    parts.length === 1
      ? parts[0]!.hash
      : parts[0]?.hash &&
        createHash('sha256')
          .update(parts.map((p) => p.hash).join(''))
          .digest('hex');
  return {
    lines: offset,
    valid,
    accounts: [...accounts.values()],
    problems: problems.list,
    problemCount: problems.count,
    hash,
  };
}
