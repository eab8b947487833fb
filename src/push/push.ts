// `connector push`, as its stages: validate (validate.ts: every record checked, nothing sent when
// one is malformed unless --skip-invalid; balances learned), chunk (chunking.ts: up to 2500
// transactions over all accounts, read a second time), send (send.ts: bounded concurrency, 409/410
// split until every new transaction is delivered) and checkpoint (checkpoint.ts: delivered chunks
// recorded, bound to the service, the user and the input's content, so a killed push resumes).
// ndjson lines take a byte-level fast path (ndjson-scan.ts): a chunk holds the lines' own bytes.
import {
  BALANCE_IGNORED_TYPE,
  MAX_TRANSACTIONS_PER_REQUEST,
  stringifyExact,
  type Obj,
} from '../contract/connector-wire.js';
import { statSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { Checkpoint } from './checkpoint.js';
import { holdLockSync } from '../fs/lock.js';
import type { Chunk } from './chunk.js';
import { Chunker, fillChunks } from './chunking.js';
import { Sender } from './send.js';
import type {
  AccountInfo,
  AccountResult,
  ChunkResult,
  IngestType,
  PushHooks,
  PushOptions,
  PushResult,
  PushSummary,
} from './types.js';
import { validate, ValidationInterrupted, type Validated } from './validate.js';

export type {
  IngestType,
  PushOptions,
  PushHooks,
  PushResult,
  PushSummary,
  ChunkResult,
  AccountResult,
} from './types.js';
export { Chunk, PartBuffers } from './chunk.js';

/** ,"k":v for each member bankctl does not know, written exactly as read. */
function extraMembers(extra: Obj | undefined): string {
  if (!extra) return '';
  const inner = stringifyExact(extra).slice(1, -1);
  return inner ? `,${inner}` : '';
}

/** `{"externalId":...,"balance":...,"transactions":[` of each account, once its balance is known. */
function accountHeads(accounts: AccountInfo[]): void {
  for (const a of accounts) {
    const reserved = a.reservedAmount !== undefined ? `,"reservedAmount":${a.reservedAmount}` : '';
    a.head = Buffer.from(
      `{"externalId":${JSON.stringify(a.externalId)},"balance":${a.balance}${reserved}${extraMembers(a.extra)},"transactions":[`,
    );
  }
}

/** The options that decide how the input is cut into chunks (a checkpoint is bound to them). */
function chunkOptions(o: PushOptions): string {
  return [
    o.format,
    o.type ?? 'from the input',
    o.chunkSize ?? MAX_TRANSACTIONS_PER_REQUEST,
    o.rejectsFile ? 'skip-invalid' : 'strict',
  ].join('|');
}

function newSummary(o: PushOptions, type: IngestType, valid: number, rejected: number, cp?: Checkpoint): PushSummary {
  return {
    file: o.displayName,
    user: o.user,
    type,
    dryRun: Boolean(o.dryRun),
    transactions: valid,
    rejected,
    chunks: 0,
    resumedChunks: 0,
    sent: 0,
    delivered: cp?.totals.delivered ?? 0,
    duplicates: cp?.totals.duplicates ?? 0,
    gone: cp?.totals.gone ?? 0,
    requests: 0,
    elapsedMs: 0,
  };
}

function accountResults(accounts: AccountInfo[], type: string): AccountResult[] {
  return accounts.map((a) => ({
    externalId: a.externalId,
    transactions: a.transactions,
    delivered: a.delivered,
    duplicates: a.duplicates,
    gone: a.gone,
    balance: a.balance!,
    ...(a.reservedAmount !== undefined ? { reservedAmount: a.reservedAmount } : {}),
    // whether a request the service took carried it (the report must not pass it off as applied)
    balanceSent: a.delivered > 0 && type !== BALANCE_IGNORED_TYPE,
  }));
}

export async function pushTransactions(o: PushOptions, hooks: PushHooks): Promise<PushResult> {
  // one push at a time on a checkpoint: two would each write their own view of what was delivered
  const release = o.checkpoint && !o.dryRun ? holdLockSync(o.checkpoint, { what: 'the checkpoint' }) : undefined;
  try {
    return await pushWithCheckpoint(o, hooks);
  } finally {
    release?.();
  }
}

/**
 * The file at the input's path as it was: the input is read twice (checked, then sent), so a file
 * written to (or replaced) in between would send lines nobody checked, or other amounts than those
 * checked and counted.
 */
function fileState(path: string): string {
  const s = statSync(path, { bigint: true });
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
}

function changedInput(o: PushOptions, when: 'checked' | 'sent'): UsageError {
  const what =
    when === 'checked'
      ? 'nothing sent'
      : `the push stopped (the summary says what was delivered; a rerun counts those as duplicates${o.checkpoint ? `; delete the checkpoint ${o.checkpoint} first, it is bound to the content checked` : ''})`;
  return new UsageError(
    `${o.displayName} changed while it was being ${when} (written to or replaced since the push started): ${what}`,
    { hint: 'run the push again once the file is complete' },
  );
}

async function pushWithCheckpoint(o: PushOptions, hooks: PushHooks): Promise<PushResult> {
  const started = hooks.now();
  const input = fileState(o.file);
  // service, user and options are checked before the input is read; its content after
  const checkpoint =
    o.checkpoint && !o.dryRun
      ? Checkpoint.load(o.checkpoint, { service: o.service ?? '', user: o.user, options: chunkOptions(o) })
      : undefined;
  let v: Validated;
  try {
    v = await validate(o, hooks.signal, checkpoint !== undefined);
  } catch (err) {
    if (!(err instanceof ValidationInterrupted)) throw err;
    const summary = newSummary(o, o.type ?? 'BATCH', 0, 0, checkpoint);
    summary.interrupted = true;
    summary.elapsedMs = hooks.now() - started;
    return { summary, chunks: [], accounts: [], error: undefined };
  }
  if (fileState(o.file) !== input) throw changedInput(o, 'checked');
  if (checkpoint) checkpoint.bindContent(v.contentHash!);
  const accounts = v.accounts.list;
  accountHeads(accounts);
  const bodyHead = Buffer.from(
    `{"type":${JSON.stringify(v.type)}${extraMembers(v.containerExtra)},"transactionAccounts":[`,
  );
  hooks.onPlanned?.(v.valid);
  const summary = newSummary(o, v.type, v.valid, v.rejected, checkpoint);
  const chunks: ChunkResult[] = [];
  const sender = new Sender(o, hooks, summary, accounts, bodyHead, checkpoint);
  const onChunk = async (index: number, c: Chunk): Promise<void> => {
    summary.chunks++;
    const r: ChunkResult = {
      index,
      transactions: c.size,
      accounts: c.parts.size,
      status: 'delivered',
      requests: 0,
      delivered: 0,
      duplicates: 0,
      gone: 0,
      ms: 0,
    };
    chunks.push(r);
    // one stat a chunk: a change stops the push before another unchecked chunk goes out
    if (fileState(o.file) !== input) {
      sender.failure ??= changedInput(o, o.dryRun ? 'checked' : 'sent');
      r.status = 'failed';
      r.error = (sender.failure as Error).message;
      return c.release();
    }
    if (o.dryRun || checkpoint?.delivered.has(index)) {
      r.status = o.dryRun ? 'dry-run' : 'resumed';
      if (!o.dryRun) summary.resumedChunks++;
      return c.release();
    }
    await sender.dispatch(index, c, r);
  };
  const chunker = new Chunker(o.chunkSize ?? MAX_TRANSACTIONS_PER_REQUEST, onChunk);
  await fillChunks(o, v, chunker, () => sender.stopped);
  await sender.drain();
  // a change after the last chunk was cut: the lines read at the end may be ones nobody checked
  if (sender.failure === undefined && !hooks.signal.aborted && fileState(o.file) !== input)
    sender.failure = changedInput(o, o.dryRun ? 'checked' : 'sent');
  summary.elapsedMs = hooks.now() - started;
  if (hooks.signal.aborted) summary.interrupted = true;
  if (summary.gone > 0)
    hooks.warn?.(`${summary.gone} transaction(s) were deleted earlier and not ingested again (410)`);
  // the balance goes with an account's transactions: when the service took none of them (all
  // already there, or deleted), no request that reached it carried the balance
  if (!o.dryRun && sender.failure === undefined && !summary.interrupted)
    for (const a of accounts)
      if (a.delivered === 0 && a.duplicates + a.gone > 0)
        hooks.warn?.(
          `the balance of account ${a.externalId} (${a.balance}) was not sent: the service already had (or had deleted) every one of its transactions in this file, and a balance goes only with new ones; \`bankctl connector transactions update\` sends one with a transaction`,
        );
  return { summary, chunks, accounts: accountResults(accounts, v.type), error: sender.failure };
}
