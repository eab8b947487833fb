// `connector push`: two streaming passes over the input. The first validates every record (nothing
// is sent when one is malformed, unless --skip-invalid) and learns each account's balance; the
// second fills chunks up to the 2500-transaction limit over all accounts and sends them with
// bounded concurrency. A 409/410 splits a chunk until every new transaction is delivered; a
// checkpoint (temp file + rename) records delivered chunks so a killed push resumes.
import { renameSync, readFileSync, statSync, writeFileSync, createWriteStream, type WriteStream } from 'node:fs';
import { ApiError } from '../errors.js';
import { ExactNumber, INGEST_TYPES, MAX_TRANSACTIONS_PER_REQUEST } from '../api/connector-wire.js';
import { InputError, records, type InputFormat, type InputRecord } from './push-input.js';

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
  send(body: string, signal: AbortSignal): Promise<void>;
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
  balance?: ExactNumber;
  reservedAmount?: ExactNumber;
  firstLine: number;
  transactions: number;
  delivered: number;
  duplicates: number;
  gone: number;
}

/** A transaction waiting in a chunk, already serialised: small strings age better than object graphs. */
interface Item {
  account: string;
  externalId: string;
  json: string;
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
      throw new InputError(path, 1, `cannot read the checkpoint: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    let data: CheckpointData;
    try {
      data = JSON.parse(text) as CheckpointData;
      if (data.version !== 1 || !Array.isArray(data.delivered)) throw new Error('bad shape');
    } catch {
      throw new InputError(path, 1, 'not a bankctl push checkpoint (delete it to start over)');
    }
    if (data.fingerprint !== fingerprint) {
      throw new InputError(path, 1, `the checkpoint belongs to another input or other options than ${displayName} now (delete it to start over)`);
    }
    for (const i of data.delivered) cp.delivered.add(i);
    for (const i of data.sending ?? []) if (!cp.delivered.has(i)) cp.unconfirmed.add(i);
    cp.totals = { ...cp.totals, ...data.totals };
    return cp;
  }

  /** Atomic: a reader sees the old file or the new one, never half of one. */
  save(): void {
    const sending = [...new Set([...this.sending, ...this.unconfirmed])].filter((i) => !this.delivered.has(i)).sort((a, b) => a - b);
    const data: CheckpointData = { version: 1, fingerprint: this.fingerprint, delivered: [...this.delivered].sort((a, b) => a - b), sending, totals: this.totals };
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(data)}\n`, { mode: 0o600 });
    renameSync(tmp, this.path);
  }
}

/** Identifies the input and the options that decide how it is cut into chunks. */
export function fingerprintOf(o: PushOptions, type: IngestType): string {
  const st = statSync(o.file);
  return [o.user, o.format, type, o.chunkSize ?? MAX_TRANSACTIONS_PER_REQUEST, st.size, Math.round(st.mtimeMs), o.rejectsFile ? 'skip' : 'strict'].join('|');
}

// ---- the flow ---------------------------------------------------------------------------------

/** Pass 1: every record checked; balances learned. Throws InputError on the first bad record. */
async function scan(o: PushOptions, hooks: PushHooks): Promise<{ accounts: Map<string, AccountInfo>; valid: number; rejected: number; type?: string; rejectedLines: Set<number> }> {
  const accounts = new Map<string, AccountInfo>();
  let valid = 0;
  let rejected = 0;
  let type: string | undefined;
  const rejectedLines = new Set<number>();
  let rejects: WriteStream | undefined;
  let rejectsError: Error | undefined;
  const reject = async (r: InputRecord, error: string) => {
    if (!o.rejectsFile) throw new InputError(o.displayName, r.line, error);
    rejected++;
    if (!rejects) {
      rejects = createWriteStream(o.rejectsFile, { mode: 0o600 });
      rejects.on('error', (err) => (rejectsError = err));
    }
    if (rejectsError) throw new InputError(o.rejectsFile, 1, `cannot write the rejects: ${(rejectsError as NodeJS.ErrnoException).code ?? rejectsError.message}`);
    if (!rejects.write(`${JSON.stringify({ line: r.line, error, text: r.text })}\n`)) await new Promise<void>((res) => rejects!.once('drain', () => res()));
  };
  try {
    for await (const batch of records(o.file, o.format, 'validate')) {
      if (hooks.signal.aborted) break;
      for (const r of batch) {
        if (r.error !== undefined) {
          rejectedLines.add(r.line);
          await reject(r, r.error);
          continue;
        }
        type ??= r.type;
        let a = accounts.get(r.account!);
        if (!a) {
          const given = o.accounts?.get(r.account!);
          a = { balance: given?.balance, reservedAmount: given?.reservedAmount, firstLine: r.line, transactions: 0, delivered: 0, duplicates: 0, gone: 0 };
          accounts.set(r.account!, a);
        }
        if (r.balance !== undefined) a.balance = r.balance;
        if (r.reservedAmount !== undefined) a.reservedAmount = r.reservedAmount;
        a.transactions++;
        valid++;
      }
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
  for (const [ext, a] of accounts) {
    if (a.balance === undefined) {
      throw new InputError(o.displayName, a.firstLine, `no balance for account "${ext}": give --accounts FILE (NDJSON of AccountEntity) or a balance field`);
    }
  }
  return { accounts, valid, rejected, type, rejectedLines };
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
  const checkpoint = o.checkpoint && !o.dryRun ? Checkpoint.load(o.checkpoint, fingerprintOf(o, type), o.displayName) : undefined;
  hooks.onPlanned?.(scanned.valid);

  const summary: PushSummary = {
    file: o.displayName, user: o.user, type, dryRun: Boolean(o.dryRun), transactions: scanned.valid, rejected: scanned.rejected,
    chunks: 0, resumedChunks: 0, sent: 0, delivered: 0, duplicates: 0, gone: 0, requests: 0, elapsedMs: 0,
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

  const serialise = (items: Item[]): string => {
    const byAccount = new Map<string, string[]>();
    for (const it of items) {
      let list = byAccount.get(it.account);
      if (!list) byAccount.set(it.account, (list = []));
      list.push(it.json);
    }
    const parts: string[] = [];
    for (const [externalId, transactions] of byAccount) {
      const a = accounts.get(externalId)!;
      const reserved = a.reservedAmount !== undefined ? `,"reservedAmount":${a.reservedAmount.text}` : '';
      parts.push(`{"externalId":${JSON.stringify(externalId)},"balance":${a.balance!.text}${reserved},"transactions":[${transactions.join(',')}]}`);
    }
    return `{"type":${JSON.stringify(type)},"transactionAccounts":[${parts.join(',')}]}`;
  };

  /** Sends items; on 409/410 takes out what the service already has (or had) and sends the rest. */
  const deliver = async (items: Item[], r: ChunkResult, resent: boolean): Promise<void> => {
    r.requests++;
    summary.requests++;
    try {
      await hooks.send(serialise(items), hooks.signal);
      for (const it of items) accounts.get(it.account)!.delivered++;
      r.delivered += items.length;
      return;
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 409 && err.status !== 410)) throw err;
      // a 409 on a chunk an interrupted run sent without recording it is that run's delivery
      const kind = err.status === 410 ? 'gone' : resent ? 'delivered' : 'duplicates';
      const named = (err.body as { errorDetails?: { externalIds?: unknown } } | undefined)?.errorDetails?.externalIds;
      if (Array.isArray(named) && named.length > 0) {
        const set = new Set(named.filter((x): x is string => typeof x === 'string'));
        const known = items.filter((it) => set.has(it.externalId));
        if (known.length > 0) {
          for (const it of known) accounts.get(it.account)![kind]++;
          r[kind] += known.length;
          const rest = items.filter((it) => !set.has(it.externalId));
          if (rest.length > 0) await deliver(rest, r, resent);
          return;
        }
      }
      if (items.length === 1) {
        accounts.get(items[0]!.account)![kind]++;
        r[kind]++;
        return;
      }
      const half = Math.ceil(items.length / 2);
      await deliver(items.slice(0, half), r, resent);
      await deliver(items.slice(half), r, resent);
    }
  };

  const dispatch = async (index: number, items: Item[]): Promise<void> => {
    summary.chunks++;
    const r: ChunkResult = { index, transactions: items.length, accounts: new Set(items.map((i) => i.account)).size, status: 'delivered', requests: 0, delivered: 0, duplicates: 0, gone: 0, ms: 0 };
    chunks.push(r);
    if (o.dryRun) {
      r.status = 'dry-run';
      return;
    }
    if (checkpoint?.delivered.has(index)) {
      r.status = 'resumed';
      summary.resumedChunks++;
      return;
    }
    while (inflight.size >= o.concurrency) await Promise.race(inflight);
    if (failure !== undefined || hooks.signal.aborted) {
      r.status = 'failed';
      return;
    }
    const t0 = hooks.now();
    summary.sent += items.length;
    const resent = checkpoint?.unconfirmed.has(index) ?? false;
    if (resent) r.resent = true;
    if (checkpoint) {
      checkpoint.sending.add(index);
      checkpoint.save();
    }
    const p = deliver(items, r, resent)
      .then(() => {
        r.ms = hooks.now() - t0;
        summary.delivered += r.delivered;
        summary.duplicates += r.duplicates;
        summary.gone += r.gone;
        done += items.length;
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
      .finally(() => inflight.delete(p));
    inflight.add(p);
  };

  let index = 0;
  let current: Item[] = [];
  let ids = new Set<string>();
  const flush = async () => {
    if (current.length === 0) return;
    const items = current;
    current = [];
    ids = new Set();
    await dispatch(index++, items);
  };
  reading: for await (const batch of records(o.file, o.format, 'send')) {
    for (const rec of batch) {
      if (failure !== undefined || hooks.signal.aborted) break reading;
      if (scanned.rejectedLines.has(rec.line)) continue;
      if (rec.error !== undefined) throw new InputError(o.displayName, rec.line, rec.error);
      const ext = rec.externalId!;
      // an externalId twice in one request is a 400; the second copy goes to the next chunk (a 409 there)
      if (current.length >= chunkSize || ids.has(ext)) await flush();
      current.push({ account: rec.account!, externalId: ext, json: rec.json! });
      ids.add(ext);
    }
  }
  if (failure === undefined && !hooks.signal.aborted) await flush();
  await Promise.all(inflight);
  summary.elapsedMs = hooks.now() - started;
  const accountResults: AccountResult[] = [...accounts].map(([externalId, a]) => ({
    externalId,
    transactions: a.transactions,
    delivered: a.delivered,
    duplicates: a.duplicates,
    gone: a.gone,
    balance: a.balance!.text,
    ...(a.reservedAmount !== undefined ? { reservedAmount: a.reservedAmount.text } : {}),
  }));
  if (summary.gone > 0) hooks.warn?.(`${summary.gone} transaction(s) were deleted earlier and not ingested again (410)`);
  return { summary, chunks, accounts: accountResults, error: failure };
}
