// `connector push`: two streaming passes over the input. The first validates every record (nothing
// is sent when one is malformed, unless --skip-invalid) and learns each account's balance; the
// second fills chunks up to the 2500-transaction limit over all accounts and sends them with
// bounded concurrency. A 409/410 splits a chunk until every new transaction is delivered; a
// checkpoint (temp file + rename) records delivered chunks so a killed push resumes.
// ndjson lines take a byte-level fast path (ndjson-scan.ts): a chunk holds the lines' own bytes,
// less the account's members, in one buffer per account; a request body is assembled from them.
import { renameSync, readFileSync, statSync, writeFileSync, createWriteStream, type WriteStream } from 'node:fs';
import { ApiError } from '../errors.js';
import { ExactNumber, INGEST_TYPES, MAX_TRANSACTIONS_PER_REQUEST } from '../contract/connector-wire.js';
import { InputError, records, sendRecord, type InputFormat, type InputRecord } from './push-input.js';
import { ACCOUNT_KINDS, ByBytes, declinedText, eachLine, latin1, LineScan, scanLine, STOP } from './ndjson-scan.js';
import { scanFile, Tally, type SegmentAccount } from './scan-segment.js';

export type IngestType = (typeof INGEST_TYPES)[number];

export interface PushOptions {
  file: string;
  /** What to call the file in messages (the path given, or "-" for stdin). */
  displayName: string;
  format: InputFormat;
  user: string;
  type?: IngestType;
  concurrency: number;
  checkpoint?: string;
  dryRun?: boolean;
  /** --skip-invalid: where rejected records go (NDJSON {line, error, text}). */
  rejectsFile?: string;
  /** Balances from --accounts. */
  accounts?: Map<string, { balance: ExactNumber; reservedAmount?: ExactNumber }>;
  chunkSize?: number;
}

export interface PushHooks {
  send(body: Buffer, signal: AbortSignal): Promise<void>;
  signal: AbortSignal;
  now(): number;
  /** Called after the first pass with the number of transactions to push. */
  onPlanned?(total: number): void;
  onProgress?(done: number): void;
  warn?(msg: string): void;
}

export interface ChunkResult {
  index: number;
  transactions: number;
  accounts: number;
  status: 'delivered' | 'resumed' | 'failed' | 'dry-run';
  requests: number;
  delivered: number;
  duplicates: number;
  gone: number;
  ms: number;
  /** Sent by an interrupted run that did not record the answer; its 409s count as delivered. */
  resent?: boolean;
  error?: string;
}

export interface AccountResult {
  externalId: string;
  transactions: number;
  delivered: number;
  duplicates: number;
  gone: number;
  balance: string;
  reservedAmount?: string;
}

export interface PushSummary {
  file: string;
  user: string;
  type: IngestType;
  dryRun: boolean;
  transactions: number;
  rejected: number;
  chunks: number;
  resumedChunks: number;
  sent: number;
  delivered: number;
  duplicates: number;
  gone: number;
  requests: number;
  elapsedMs: number;
}

export interface PushResult {
  summary: PushSummary;
  chunks: ChunkResult[];
  accounts: AccountResult[];
  error?: unknown;
}

interface AccountInfo {
  externalId: string;
  /** Its place in the account list (chunks refer to accounts by it). */
  index: number;
  /** Balances as their number text. */
  balance?: string;
  reservedAmount?: string;
  transactions: number;
  delivered: number;
  duplicates: number;
  gone: number;
  /** `{"externalId":...,"balance":...,"transactions":[` once the balances are known. */
  head?: Buffer;
}

/**
 * The buffers of chunk parts, handed back when a chunk is done: a push cycles through a few of
 * them instead of allocating (and growing) fresh ones per chunk, which kept the peak RSS up.
 * Request bodies are never pooled: the HTTP client may hold one after the answer.
 */
export class PartBuffers {
  private readonly free: Buffer[] = [];

  get(n: number): Buffer {
    const free = this.free;
    for (let i = free.length - 1; i >= 0; i--) {
      if (free[i]!.length < n) continue;
      const b = free[i]!;
      free[i] = free[free.length - 1]!;
      free.pop();
      return b;
    }
    return Buffer.allocUnsafe(Math.max(n, 4096));
  }

  put(b: Buffer): void {
    if (this.free.length < 32) this.free.push(b);
  }
}

/** One account's transactions in a chunk: their wire JSON, comma-separated, as in the body. */
class Part {
  data: Buffer;
  length = 0;

  constructor(private readonly pool: PartBuffers) {
    this.data = pool.get(4096);
  }

  reserve(n: number): void {
    if (this.length + n <= this.data.length) return;
    const bigger = this.pool.get(Math.max(this.data.length * 2, this.length + n));
    this.data.copy(bigger, 0, 0, this.length);
    this.pool.put(this.data);
    this.data = bigger;
  }
}

/**
 * Transactions waiting to be sent, as the wire JSON bytes of each, already grouped by account the
 * way the request body lists them: a few flat arrays per chunk instead of an object graph per
 * transaction, and a body that is a handful of copies.
 */
export class Chunk {
  /** By account index, in the order the accounts first appear in the chunk. */
  readonly parts = new Map<number, Part>();
  /** Per transaction: its account, and where its JSON is in that account's part. */
  readonly account: number[] = [];
  readonly start: number[] = [];
  readonly end: number[] = [];
  readonly ids: string[] = [];
  readonly idSet = new Set<string>();

  constructor(private readonly pool = new PartBuffers()) {}

  get size(): number {
    return this.ids.length;
  }

  /** Done with: the parts' buffers go back to the pool. */
  release(): void {
    for (const part of this.parts.values()) this.pool.put(part.data);
    this.parts.clear();
  }

  private part(account: number, n: number): Part {
    let part = this.parts.get(account);
    if (!part) this.parts.set(account, (part = new Part(this.pool)));
    part.reserve(n + 1);
    if (part.length > 0) part.data[part.length++] = 44;
    return part;
  }

  private added(account: number, from: number, to: number, externalId: string): void {
    this.account.push(account);
    this.start.push(from);
    this.end.push(to);
    this.ids.push(externalId);
    this.idSet.add(externalId);
  }

  /** A scanned line's members, less the account's, as a JSON object: runs of members copied as written. */
  addScanned(b: Buffer, sc: LineScan, account: number, externalId: string): void {
    const part = this.part(account, sc.memberEnd[sc.members - 1]! - sc.memberStart[0]! + 2);
    const d = part.data;
    const from = part.length;
    let p = from;
    d[p++] = 123;
    let first = true;
    let runStart = -1;
    let runEnd = -1;
    for (let m = 0; m <= sc.members; m++) {
      const drop = m === sc.members || (ACCOUNT_KINDS & (1 << sc.memberKind[m]!)) !== 0;
      if (!drop) {
        if (runStart < 0) runStart = sc.memberStart[m]!;
        runEnd = sc.memberEnd[m]!;
        continue;
      }
      if (runStart < 0) continue;
      if (!first) d[p++] = 44;
      // a loop beats Buffer#copy for a line's worth of bytes (no view allocated per call)
      for (let k = runStart; k < runEnd; k++) d[p++] = b[k]!;
      first = false;
      runStart = -1;
    }
    d[p++] = 125;
    part.length = p;
    this.added(account, from, p, externalId);
  }

  addJson(json: string, account: number, externalId: string): void {
    const n = Buffer.byteLength(json);
    const part = this.part(account, n);
    const from = part.length;
    part.length += part.data.write(json, from, n, 'utf8');
    this.added(account, from, part.length, externalId);
  }

  /** The request body: for the whole chunk, or for some of its transactions (their places). */
  body(head: Buffer, accounts: AccountInfo[], items?: number[]): Buffer {
    if (items && items.length === this.size) items = undefined;
    let selected: Map<number, number[]> | undefined;
    let bytes = head.length + 2;
    if (items) {
      selected = new Map();
      for (const i of items) {
        const acc = this.account[i]!;
        let list = selected.get(acc);
        if (!list) selected.set(acc, (list = []));
        list.push(i);
        bytes += this.end[i]! - this.start[i]! + 1;
      }
      for (const acc of selected.keys()) bytes += accounts[acc]!.head!.length + 3;
    } else for (const [acc, part] of this.parts) bytes += accounts[acc]!.head!.length + part.length + 3;
    const out = Buffer.allocUnsafe(bytes);
    let p = head.copy(out, 0);
    let firstAccount = true;
    for (const acc of selected ? selected.keys() : this.parts.keys()) {
      if (!firstAccount) out[p++] = 44;
      firstAccount = false;
      p += accounts[acc]!.head!.copy(out, p);
      const part = this.parts.get(acc)!;
      if (!selected) p += part.data.copy(out, p, 0, part.length);
      else {
        const list = selected.get(acc)!;
        for (let k = 0; k < list.length; k++) {
          if (k > 0) out[p++] = 44;
          p += part.data.copy(out, p, this.start[list[k]!]!, this.end[list[k]!]!);
        }
      }
      out[p++] = 93;
      out[p++] = 125;
    }
    out[p++] = 93;
    out[p++] = 125;
    return out.subarray(0, p);
  }
}

// ---- checkpoint -------------------------------------------------------------------------------

interface CheckpointData {
  version: 1;
  fingerprint: string;
  delivered: number[];
  /** Chunks sent but not yet answered: a 409 on them after a restart is our own earlier delivery. */
  sending?: number[];
  totals: { delivered: number; duplicates: number; gone: number };
}

export class Checkpoint {
  readonly delivered = new Set<number>();
  readonly sending = new Set<number>();
  /** Chunks that a previous run had sent without recording the answer. */
  readonly unconfirmed = new Set<number>();
  totals = { delivered: 0, duplicates: 0, gone: 0 };
  constructor(
    readonly path: string,
    readonly fingerprint: string,
  ) {}

  static load(path: string, fingerprint: string, displayName: string): Checkpoint {
    const cp = new Checkpoint(path, fingerprint);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return cp;
      throw new InputError(
        path,
        1,
        `cannot read the checkpoint: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
    let data: CheckpointData;
    try {
      data = JSON.parse(text) as CheckpointData;
      if (data.version !== 1 || !Array.isArray(data.delivered)) throw new Error('bad shape');
    } catch {
      throw new InputError(path, 1, 'not a bankctl push checkpoint (delete it to start over)');
    }
    if (data.fingerprint !== fingerprint) {
      throw new InputError(
        path,
        1,
        `the checkpoint belongs to another input or other options than ${displayName} now (delete it to start over)`,
      );
    }
    for (const i of data.delivered) cp.delivered.add(i);
    for (const i of data.sending ?? []) if (!cp.delivered.has(i)) cp.unconfirmed.add(i);
    cp.totals = { ...cp.totals, ...data.totals };
    return cp;
  }

  /** Atomic: a reader sees the old file or the new one, never half of one. */
  save(): void {
    const sending = [...new Set([...this.sending, ...this.unconfirmed])]
      .filter((i) => !this.delivered.has(i))
      .sort((a, b) => a - b);
    const data: CheckpointData = {
      version: 1,
      fingerprint: this.fingerprint,
      delivered: [...this.delivered].sort((a, b) => a - b),
      sending,
      totals: this.totals,
    };
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(data)}\n`, { mode: 0o600 });
    renameSync(tmp, this.path);
  }
}

/** Identifies the input and the options that decide how it is cut into chunks. */
export function fingerprintOf(o: PushOptions, type: IngestType): string {
  const st = statSync(o.file);
  return [
    o.user,
    o.format,
    type,
    o.chunkSize ?? MAX_TRANSACTIONS_PER_REQUEST,
    st.size,
    Math.round(st.mtimeMs),
    o.rejectsFile ? 'skip' : 'strict',
  ].join('|');
}

// ---- the flow ---------------------------------------------------------------------------------

interface Scanned {
  accounts: ByBytes<AccountInfo>;
  valid: number;
  rejected: number;
  type?: string;
  rejectedLines: Set<number>;
}

/** Pass 1: every record checked; balances learned. Throws InputError on the first bad record. */
async function scan(o: PushOptions, hooks: PushHooks): Promise<Scanned> {
  let rejected = 0;
  let type: string | undefined;
  const rejectedLines = new Set<number>();
  let rejects: WriteStream | undefined;
  let rejectsError: Error | undefined;
  const reject = async (line: number, error: string, text?: string) => {
    if (!o.rejectsFile) throw new InputError(o.displayName, line, error);
    rejectedLines.add(line);
    rejected++;
    if (!rejects) {
      rejects = createWriteStream(o.rejectsFile, { mode: 0o600 });
      rejects.on('error', (err) => (rejectsError = err));
    }
    if (rejectsError)
      throw new InputError(
        o.rejectsFile,
        1,
        `cannot write the rejects: ${(rejectsError as NodeJS.ErrnoException).code ?? rejectsError.message}`,
      );
    if (!rejects.write(`${JSON.stringify({ line, error, text })}\n`))
      await new Promise<void>((res) => rejects!.once('drain', () => res()));
  };
  let found: { valid: number; accounts: SegmentAccount[] };
  try {
    if (o.format === 'ndjson') {
      // byte-level, and side by side in worker threads for a large file (scan-segment.ts)
      const r = await scanFile(o.file, o.rejectsFile ? reject : undefined, hooks.signal);
      if (r.error) throw new InputError(o.displayName, r.error.line, r.error.message);
      found = r;
    } else {
      const tally = new Tally();
      reading: for await (const batch of records(o.file, o.format, 'validate')) {
        for (const r of batch) {
          if (hooks.signal.aborted) break reading;
          if (r.error !== undefined) await reject(r.line, r.error, r.text);
          else {
            type ??= r.type;
            tally.record(r.account!, r.line, r.balance?.text, r.reservedAmount?.text);
          }
        }
      }
      found = { valid: tally.valid, accounts: tally.accounts.list };
    }
  } finally {
    if (rejects) {
      const w = rejects;
      await new Promise<void>((res) => {
        w.once('error', () => res());
        w.end(() => res());
      });
    }
  }
  // balances given on the lines win over --accounts
  const accounts = new ByBytes<AccountInfo>();
  for (const sa of found.accounts) {
    const given = o.accounts?.get(sa.externalId);
    const balance = sa.balance ?? given?.balance.text;
    if (balance === undefined) {
      throw new InputError(
        o.displayName,
        sa.firstLine,
        `no balance for account "${sa.externalId}": give --accounts FILE (NDJSON of AccountEntity) or a balance field`,
      );
    }
    const reservedAmount = sa.reservedAmount ?? given?.reservedAmount?.text;
    accounts.add(sa.externalId, {
      externalId: sa.externalId,
      index: accounts.list.length,
      balance,
      reservedAmount,
      transactions: sa.transactions,
      delivered: 0,
      duplicates: 0,
      gone: 0,
    });
  }
  return { accounts, valid: found.valid, rejected, type, rejectedLines };
}

export async function pushTransactions(o: PushOptions, hooks: PushHooks): Promise<PushResult> {
  const started = hooks.now();
  const chunkSize = o.chunkSize ?? MAX_TRANSACTIONS_PER_REQUEST;
  const scanned = await scan(o, hooks);
  let type = o.type;
  if (!type) {
    if (scanned.type !== undefined && !(INGEST_TYPES as readonly string[]).includes(scanned.type)) {
      throw new InputError(o.displayName, 1, `type must be one of ${INGEST_TYPES.join(', ')}, got "${scanned.type}"`);
    }
    type = (scanned.type as IngestType | undefined) ?? 'HISTORICAL';
  }
  const accounts = scanned.accounts;
  const accountList = accounts.list;
  for (const a of accountList) {
    const reserved = a.reservedAmount !== undefined ? `,"reservedAmount":${a.reservedAmount}` : '';
    a.head = Buffer.from(
      `{"externalId":${JSON.stringify(a.externalId)},"balance":${a.balance}${reserved},"transactions":[`,
    );
  }
  const bodyHead = Buffer.from(`{"type":${JSON.stringify(type)},"transactionAccounts":[`);
  const checkpoint =
    o.checkpoint && !o.dryRun ? Checkpoint.load(o.checkpoint, fingerprintOf(o, type), o.displayName) : undefined;
  hooks.onPlanned?.(scanned.valid);

  const summary: PushSummary = {
    file: o.displayName,
    user: o.user,
    type,
    dryRun: Boolean(o.dryRun),
    transactions: scanned.valid,
    rejected: scanned.rejected,
    chunks: 0,
    resumedChunks: 0,
    sent: 0,
    delivered: 0,
    duplicates: 0,
    gone: 0,
    requests: 0,
    elapsedMs: 0,
  };
  if (checkpoint) {
    summary.delivered = checkpoint.totals.delivered;
    summary.duplicates = checkpoint.totals.duplicates;
    summary.gone = checkpoint.totals.gone;
  }
  const chunks: ChunkResult[] = [];
  let done = summary.delivered + summary.duplicates + summary.gone;
  let failure: unknown;
  const inflight = new Set<Promise<void>>();

  /** Sends items; on 409/410 takes out what the service already has (or had) and sends the rest. */
  const deliver = async (c: Chunk, items: number[], r: ChunkResult, resent: boolean): Promise<void> => {
    r.requests++;
    summary.requests++;
    try {
      await hooks.send(c.body(bodyHead, accountList, items), hooks.signal);
      for (const i of items) accountList[c.account[i]!]!.delivered++;
      r.delivered += items.length;
      return;
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 409 && err.status !== 410)) throw err;
      // a 409 on a chunk an interrupted run sent without recording it is that run's delivery
      const kind = err.status === 410 ? 'gone' : resent ? 'delivered' : 'duplicates';
      const named = (err.body as { errorDetails?: { externalIds?: unknown } } | undefined)?.errorDetails?.externalIds;
      if (Array.isArray(named) && named.length > 0) {
        const set = new Set(named.filter((x): x is string => typeof x === 'string'));
        const known = items.filter((i) => set.has(c.ids[i]!));
        if (known.length > 0) {
          for (const i of known) accountList[c.account[i]!]![kind]++;
          r[kind] += known.length;
          const rest = items.filter((i) => !set.has(c.ids[i]!));
          if (rest.length > 0) await deliver(c, rest, r, resent);
          return;
        }
      }
      if (items.length === 1) {
        accountList[c.account[items[0]!]!]![kind]++;
        r[kind]++;
        return;
      }
      const half = Math.ceil(items.length / 2);
      await deliver(c, items.slice(0, half), r, resent);
      await deliver(c, items.slice(half), r, resent);
    }
  };

  const dispatch = async (index: number, c: Chunk): Promise<void> => {
    summary.chunks++;
    const n = c.size;
    const r: ChunkResult = {
      index,
      transactions: n,
      accounts: c.parts.size,
      status: 'delivered',
      requests: 0,
      delivered: 0,
      duplicates: 0,
      gone: 0,
      ms: 0,
    };
    chunks.push(r);
    if (o.dryRun) {
      r.status = 'dry-run';
      return c.release();
    }
    if (checkpoint?.delivered.has(index)) {
      r.status = 'resumed';
      summary.resumedChunks++;
      return c.release();
    }
    while (inflight.size >= o.concurrency) await Promise.race(inflight);
    if (failure !== undefined || hooks.signal.aborted) {
      r.status = 'failed';
      return c.release();
    }
    const t0 = hooks.now();
    summary.sent += n;
    const resent = checkpoint?.unconfirmed.has(index) ?? false;
    if (resent) r.resent = true;
    if (checkpoint) {
      checkpoint.sending.add(index);
      checkpoint.save();
    }
    const all = Array.from({ length: n }, (_, i) => i);
    const p = deliver(c, all, r, resent)
      .then(() => {
        r.ms = hooks.now() - t0;
        summary.delivered += r.delivered;
        summary.duplicates += r.duplicates;
        summary.gone += r.gone;
        done += n;
        hooks.onProgress?.(done);
        if (checkpoint) {
          checkpoint.delivered.add(index);
          checkpoint.sending.delete(index);
          checkpoint.unconfirmed.delete(index);
          checkpoint.totals = { delivered: summary.delivered, duplicates: summary.duplicates, gone: summary.gone };
          checkpoint.save();
        }
      })
      .catch((err: unknown) => {
        r.status = 'failed';
        r.ms = hooks.now() - t0;
        r.error = err instanceof Error ? err.message : String(err);
        failure ??= err;
      })
      .finally(() => {
        c.release();
        inflight.delete(p);
      });
    inflight.add(p);
  };

  let index = 0;
  const pool = new PartBuffers();
  let current = new Chunk(pool);
  const stopped = () => failure !== undefined || hooks.signal.aborted;
  const flush = async () => {
    if (current.size === 0) return;
    const c = current;
    current = new Chunk(pool);
    await dispatch(index++, c);
  };
  /** Makes room for externalId: an externalId twice in one request is a 400, so the second copy goes to the next chunk (a 409 there). */
  const room = (externalId: string): Promise<void> | undefined =>
    current.size >= chunkSize || current.idSet.has(externalId) ? flush() : undefined;
  const skip = scanned.rejectedLines.size > 0 ? scanned.rejectedLines : undefined;
  /** The file changed under us: an account the first pass never saw. */
  const changed = (line: number) =>
    new InputError(
      o.displayName,
      line,
      'the line changed since it was checked (an account the first pass did not see)',
    );
  const sendSlow = async (rec: InputRecord): Promise<void> => {
    if (rec.error !== undefined) throw new InputError(o.displayName, rec.line, rec.error);
    const ext = rec.externalId!;
    const account = accounts.byKey.get(rec.account!);
    if (!account) throw changed(rec.line);
    await room(ext);
    current.addJson(rec.json!, account.index, ext);
  };
  if (o.format === 'ndjson') {
    const sc = new LineScan();
    await eachLine(o.file, (b, s, e, line) => {
      if (stopped()) return STOP;
      if (skip?.has(line)) return;
      if (scanLine(b, s, e, sc)) {
        const ext = latin1(b, sc.externalIdStart, sc.externalIdEnd);
        const found = accounts.find(b, sc.accountStart, sc.accountEnd);
        if (!found) throw changed(line);
        const account = found.index;
        const wait = room(ext);
        if (!wait) return current.addScanned(b, sc, account, ext);
        return wait.then(() => (stopped() ? STOP : current.addScanned(b, sc, account, ext)));
      }
      const text = declinedText(b, s, e);
      if (text === undefined) return;
      return sendSlow(sendRecord(line, text)).then(() => (stopped() ? STOP : undefined));
    });
  } else {
    reading: for await (const batch of records(o.file, o.format, 'send')) {
      for (const rec of batch) {
        if (stopped()) break reading;
        if (skip?.has(rec.line)) continue;
        await sendSlow(rec);
      }
    }
  }
  if (!stopped()) await flush();
  await Promise.all(inflight);
  summary.elapsedMs = hooks.now() - started;
  const accountResults: AccountResult[] = accountList.map((a) => ({
    externalId: a.externalId,
    transactions: a.transactions,
    delivered: a.delivered,
    duplicates: a.duplicates,
    gone: a.gone,
    balance: a.balance!,
    ...(a.reservedAmount !== undefined ? { reservedAmount: a.reservedAmount } : {}),
  }));
  if (summary.gone > 0)
    hooks.warn?.(`${summary.gone} transaction(s) were deleted earlier and not ingested again (410)`);
  return { summary, chunks, accounts: accountResults, error: failure };
}
