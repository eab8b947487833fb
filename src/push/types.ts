// What a push is given and what it gives back: shared by the stages of src/push/.
import type { ExactNumber, INGEST_TYPES, Obj } from '../contract/connector-wire.js';
import type { InputFormat } from './input.js';

export type IngestType = (typeof INGEST_TYPES)[number];

export interface PushOptions {
  file: string;
  /** What to call the file in messages (the path given, or "-" for stdin). */
  displayName: string;
  format: InputFormat;
  user: string;
  /** The service's base URL: a checkpoint is bound to it. */
  service?: string;
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
  /**
   * events.done: called when nothing holds body any more (its buffer is then reused), never on
   * failure; events.attempt: as each HTTP attempt goes out (retries included); events.lost: when an
   * attempt ended without an answer (it may have been stored).
   */
  send(
    body: Buffer,
    signal: AbortSignal,
    events?: { done?: () => void; attempt?: () => void; lost?: () => void },
  ): Promise<void>;
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
  /** A request the service took in this run carried the balance (false: all its transactions were known). */
  balanceSent: boolean;
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
  /** Stopped by a signal before every chunk was sent. */
  interrupted?: boolean;
}

export interface PushResult {
  summary: PushSummary;
  chunks: ChunkResult[];
  accounts: AccountResult[];
  error?: unknown;
}

/** An account of the push: its balances, its place in the account list, its counts. */
export interface AccountInfo {
  externalId: string;
  /** Its place in the account list (chunks refer to accounts by it). */
  index: number;
  /** Balances as their number text. */
  balance?: string;
  reservedAmount?: string;
  /** json: its members bankctl does not know, sent as written. */
  extra?: Obj;
  transactions: number;
  delivered: number;
  duplicates: number;
  gone: number;
  /** `{"externalId":...,"balance":...,"transactions":[` once the balances are known. */
  head?: Buffer;
}
