// The transactions of one connector ingest, kept as the request body until they are read.
//
// An ingest of a million transactions made a million records (five objects each that all survive),
// and the garbage collector spent a third of the ingest walking them: 3 µs of CPU a transaction,
// where issue 20 asks for 1.67. Most of them are never read one by one: a push is followed by a read
// of pages, or by nothing. So an ingest the fast parser read whole (ingest-body.ts: every rule
// checked, nothing stored yet) keeps its body, where each transaction starts, and what the ingest
// gave it (ids, seqs, the time, its account); the store's table makes the records the first time it
// is asked about that user (TransactionTable.addBatch), the connector's externalId index keeps a
// number per transaction until then (ExternalIndex.addBatch). A record is made from the same bytes
// by the same parser as the ingest read, so it is the record the ingest would have made.
// docs/lazy-transaction-store.md has the plan and the measurements.
import { toPlain, type TransactionEntity } from '../../contract/connector-wire.js';
import type { IdBlock, PendingBatch, TransactionRecord, TransactionTable } from '../store.js';
import { transactionAt } from './ingest-body.js';
import { isoDay, UNCATEGORIZED_EXPENSE, UNCATEGORIZED_INCOME, type ExternalIndex } from './state.js';

/** What a record takes from its account at the ingest. */
export interface RecordAccount {
  id: string;
  currencyCode: string;
}

/** The record a connector ingest makes of an entity. */
export function transactionRecord(
  id: string,
  seq: number,
  userId: string,
  account: RecordAccount,
  t: TransactionEntity,
  categoryId: string,
  now: number,
): TransactionRecord {
  const day = isoDay(t.date);
  const rec: TransactionRecord = {
    id,
    userId,
    accountId: account.id,
    externalId: t.externalId,
    amount: t.amount,
    currencyCode: account.currencyCode,
    bookedDate: day,
    valueDate: day,
    description: t.description,
    originalDescription: t.description,
    categoryId,
    status: t.pending ? 'PENDING' : 'BOOKED',
    type: t.type,
    seq,
    created: now,
    updated: now,
  };
  // only when there are some: two fields left undefined cost every stored transaction 16 bytes
  const payload = payloadOf(t);
  if (payload !== undefined) rec.payload = payload;
  const notes = notesOf(t);
  if (notes !== undefined) rec.notes = notes;
  if (t.merchantName !== undefined) rec.merchantName = t.merchantName;
  if (t.merchantCategoryCode !== undefined) rec.merchantCategoryCode = t.merchantCategoryCode;
  if (t.counterparties !== undefined) rec.counterparties = t.counterparties;
  return rec;
}

/** A new connector transaction's category: uncategorised expense or income by its sign. */
export function uncategorized(amount: string): string {
  return amount.startsWith('-') ? UNCATEGORIZED_EXPENSE : UNCATEGORIZED_INCOME;
}

export function payloadOf(t: TransactionEntity): Record<string, unknown> | undefined {
  if (!t.payload) return undefined;
  const keys = Object.keys(t.payload);
  if (keys.length === 0) return undefined;
  return toPlain(t.payload) as Record<string, unknown>;
}

/** TAGS become hashtags in the notes field. */
export function notesOf(t: TransactionEntity): string | undefined {
  if (!t.tags || t.tags.length === 0) return undefined;
  return t.tags.map((tag) => `#${tag.replace(/\s+/g, '')}`).join(' ');
}

/**
 * One ingest's transactions, in the order of the body (over its accounts). Only for bodies whose
 * transactions replace no pending ones (that ingest reads and deletes records as it goes).
 */
export class IngestBatch implements PendingBatch {
  private records?: TransactionRecord[];
  private readonly body: Buffer;

  /**
   * `accounts[k]` holds transactions `ends[k - 1]` (0 for the first) up to `ends[k]`; `seqBase + 1`
   * is the first transaction's seq; `ids` gave one id to each.
   */
  constructor(
    readonly table: TransactionTable,
    readonly index: ExternalIndex,
    readonly userId: string,
    body: Buffer,
    private readonly starts: Int32Array,
    private readonly accounts: readonly RecordAccount[],
    private readonly ends: Int32Array,
    private readonly ids: IdBlock,
    private readonly seqBase: number,
    private readonly created: number,
  ) {
    // a body that is a view of a bigger buffer (a small one comes from Node's shared pool) would
    // keep all of it
    this.body = body.byteLength === body.buffer.byteLength ? body : Buffer.copyBytesFrom(body);
  }

  get count(): number {
    return this.starts.length;
  }

  /** The account of transaction i. */
  account(i: number): RecordAccount {
    let k = 0;
    while (i >= this.ends[k]!) k++;
    return this.accounts[k]!;
  }

  entity(i: number): TransactionEntity {
    return transactionAt(this.body, this.starts[i]!);
  }

  /** A new record of transaction i as the ingest made it (the events' content is made of one). */
  record(i: number, account = this.account(i)): TransactionRecord {
    const t = this.entity(i);
    return transactionRecord(
      this.ids.at(i),
      this.seqBase + i + 1,
      this.userId,
      account,
      t,
      uncategorized(t.amount),
      this.created,
    );
  }

  /** The records the table keeps (made once). */
  materialize(): TransactionRecord[] {
    if (!this.records) {
      const out: TransactionRecord[] = new Array(this.count);
      let k = 0;
      for (let i = 0; i < this.count; i++) {
        while (i >= this.ends[k]!) k++;
        out[i] = this.record(i, this.accounts[k]!);
      }
      this.records = out;
    }
    return this.records;
  }

  /** Record i once materialized (the externalId index takes them after the table: taken). */
  made(i: number): TransactionRecord {
    if (!this.records) throw new Error('IngestBatch: records read before they were made');
    return this.records[i]!;
  }

  taken(): void {
    this.index.resolveBatches();
  }
}
