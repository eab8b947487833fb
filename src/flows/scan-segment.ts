// The first pass of an ndjson push (every line checked, each account's balance learned) over a
// byte range of the file, and the same over a large file cut into ranges that worker threads scan
// side by side: nothing is sent during this pass, so the service is idle and the cores are free.
// The merged result is the one a single scan from the top would give: line numbers, the first
// error in file order, accounts in order of first appearance, each one's last balance.
import { existsSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ByBytes, declinedText, eachLine, latin1, LineScan, sameText, scanLine, STOP } from './ndjson-scan.js';
import { validateLine } from './push-input.js';
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
  /** The first malformed record, when no onReject was given (the scan stops there). */
  error?: { line: number; message: string };
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

/** Scans the lines of file's bytes [start, end); line numbers count from start. */
export async function scanSegment(
  file: string,
  range: { start?: number; end?: number } = {},
  onReject?: OnReject,
  signal?: AbortSignal,
): Promise<SegmentResult> {
  const tally = new Tally();
  const sc = new LineScan();
  let lines = 0;
  let error: SegmentResult['error'];
  await eachLine(
    file,
    (b, s, e, line) => {
      lines = line;
      if (signal?.aborted) return STOP;
      if (scanLine(b, s, e, sc)) return tally.recordScanned(b, sc, line);
      const text = declinedText(b, s, e);
      if (text === undefined) return;
      const r = validateLine(line, text);
      if (r.error !== undefined) {
        if (onReject) return onReject(line, r.error, text);
        error = { line, message: r.error };
        return STOP;
      }
      tally.record(r.account!, line, r.balance?.text, r.reservedAmount?.text);
    },
    range,
  );
  return { lines, valid: tally.valid, accounts: tally.accounts.list, error };
}

/** Files smaller than this are scanned in one go: a worker costs tens of milliseconds to start. */
export const PARALLEL_MIN_BYTES = 16 * 1024 * 1024;

/**
 * The worker's script: embedded in the single executable, else next to the bundle
 * (dist/scan-worker.js); none when running from the sources.
 */
function workerScript(): URL | undefined {
  const embedded = embeddedModuleUrl('scan-worker.mjs');
  if (embedded) return embedded;
  const url = new URL('../scan-worker.js', import.meta.url);
  return import.meta.url.endsWith('.js') && existsSync(fileURLToPath(url)) ? url : undefined;
}

/** Offsets just after a newline near each of threads - 1 even cuts of the file. */
async function cuts(file: string, size: number, threads: number): Promise<number[]> {
  const fh = await open(file, 'r');
  const out = [0];
  try {
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (let k = 1; k < threads; k++) {
      let pos = Math.max(Math.floor((size * k) / threads), out[out.length - 1]!);
      let found = -1;
      while (found < 0 && pos < size) {
        const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
        if (bytesRead === 0) break;
        const nl = buf.subarray(0, bytesRead).indexOf(10);
        if (nl >= 0) found = pos + nl + 1;
        else pos += bytesRead;
      }
      if (found < 0 || found >= size) break;
      if (found > out[out.length - 1]!) out.push(found);
    }
  } finally {
    await fh.close();
  }
  out.push(size);
  return out;
}

function inWorker(script: URL, file: string, start: number, end: number, signal?: AbortSignal): Promise<SegmentResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(script, { workerData: { file, start, end } });
    const abort = () => void w.terminate();
    signal?.addEventListener('abort', abort, { once: true });
    w.once('message', (r: SegmentResult) => resolve(r));
    w.once('error', reject);
    w.once('exit', (code) => {
      signal?.removeEventListener('abort', abort);
      // after a message this settles nothing; without one the worker died or was stopped
      reject(new Error(`the scan worker stopped (exit ${code})`));
    });
  });
}

/**
 * The first pass over a whole file: in ranges side by side when the file is large, there are cores
 * to spare and the bundle's worker script is there; else in one go. Stops at the first malformed
 * record unless onReject takes them (then always in one go, so rejects are written in file order).
 */
export async function scanFile(file: string, onReject?: OnReject, signal?: AbortSignal): Promise<SegmentResult> {
  const script = workerScript();
  const size = (await stat(file)).size;
  const threads = Math.min(availableParallelism(), 4);
  if (onReject || !script || threads < 2 || size < PARALLEL_MIN_BYTES) return scanSegment(file, {}, onReject, signal);
  const at = await cuts(file, size, threads);
  const parts = await Promise.all(
    at
      .slice(0, -1)
      .map((start, k) =>
        k === 0
          ? scanSegment(file, { start, end: at[k + 1] }, undefined, signal)
          : inWorker(script, file, start, at[k + 1]!, signal),
      ),
  );
  return merge(parts);
}

/** Segment results in file order -> the result of one scan from the top. */
export function merge(parts: SegmentResult[]): SegmentResult {
  const accounts = new Map<string, SegmentAccount>();
  let offset = 0;
  let valid = 0;
  let error: SegmentResult['error'];
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
    // a scan stops at its first error: what comes after it is not part of the result
    if (p.error) error = { line: p.error.line + offset, message: p.error.message };
    offset += p.lines;
    if (error) break;
  }
  return { lines: offset, valid, accounts: [...accounts.values()], error };
}
