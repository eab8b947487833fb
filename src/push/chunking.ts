// Stage 2 of a push, chunking: the second read of the input fills chunks of up to 2500
// transactions over all accounts, in file order, and hands each full one on. An externalId twice in
// one request is a 400, so a second copy starts the next chunk. Data flows one way: input -> Chunk.
import { Chunk, PartBuffers } from './chunk.js';
import { InputError, records } from './input.js';
import { eachLine, STOP } from './lines.js';
import { declinedText, LineScan, scanLine } from './ndjson-scan.js';
import { sendRecord } from './ndjson.js';
import type { InputRecord } from './records.js';
import type { PushOptions } from './types.js';
import type { Validated } from './validate.js';

export class Chunker {
  private readonly pool = new PartBuffers();
  current: Chunk;
  private index = 0;

  constructor(
    private readonly size: number,
    private readonly onChunk: (index: number, c: Chunk) => Promise<void>,
  ) {
    this.current = new Chunk(this.pool, size);
  }

  /** Hands the current chunk on (if it holds anything) and starts the next. */
  async flush(): Promise<void> {
    if (this.current.size === 0) return;
    const c = this.current;
    this.current = new Chunk(this.pool, this.size);
    await this.onChunk(this.index++, c);
  }

  /** Makes room for the externalId b[s, e); undefined when there is room already (no promise on the fast path). */
  room(b: Uint8Array, s: number, e: number): Promise<void> | undefined {
    return this.current.size >= this.size || this.current.hasId(b, s, e) ? this.flush() : undefined;
  }

  /** Makes room for externalId. */
  roomFor(externalId: string): Promise<void> | undefined {
    const b = Buffer.from(externalId);
    return this.room(b, 0, b.length);
  }
}

/** The file changed under us: an account the first pass never saw. */
const changed = (o: PushOptions, line: number) =>
  new InputError(o.displayName, line, 'the line changed since it was checked (an account the first pass did not see)');

async function addRecord(o: PushOptions, v: Validated, ch: Chunker, rec: InputRecord): Promise<void> {
  if (rec.error !== undefined) throw new InputError(o.displayName, rec.line, rec.error);
  const ext = rec.externalId!;
  const account = v.accounts.byKey.get(rec.account!);
  if (!account) throw changed(o, rec.line);
  await ch.roomFor(ext);
  const replaced = rec.pendingIds ?? rec.tx?.pendingIds;
  // a replacement of pending transactions sent in an earlier chunk goes out only once that chunk
  // has been answered: sent side by side, it could be stored first and leave the pending ones
  if (replaced?.some((id) => !ch.current.hasIdText(id))) ch.current.barrier = true;
  ch.current.addJson(rec.json!, account.index, ext, rec.line);
}

/**
 * Adds a scanned line once the chunker has made room. Its own function: a closure in the per-line
 * callback would make every call allocate a context for the variables it captures.
 */
function addScannedAfter(
  wait: Promise<void>,
  ch: Chunker,
  b: Buffer,
  sc: LineScan,
  account: number,
  line: number,
  stopped: () => boolean,
): Promise<typeof STOP | void> {
  return wait.then(() => (stopped() ? STOP : ch.current.addScanned(b, sc, account, line)));
}

async function fillNdjson(o: PushOptions, v: Validated, ch: Chunker, stopped: () => boolean): Promise<void> {
  const sc = new LineScan();
  const skip = v.rejectedLines.size > 0 ? v.rejectedLines : undefined;
  await eachLine(o.file, (b, s, e, line) => {
    if (stopped()) return STOP;
    if (skip?.has(line)) return;
    if (scanLine(b, s, e, sc)) {
      const found = v.accounts.find(b, sc.accountStart, sc.accountEnd);
      if (!found) throw changed(o, line);
      const wait = ch.room(b, sc.externalIdStart, sc.externalIdEnd);
      if (!wait) return ch.current.addScanned(b, sc, found.index, line);
      return addScannedAfter(wait, ch, b, sc, found.index, line, stopped);
    }
    const text = declinedText(b, s, e);
    if (text === undefined) return;
    return addRecord(o, v, ch, sendRecord(line, text)).then(() => (stopped() ? STOP : undefined));
  });
}

async function fillRecords(o: PushOptions, v: Validated, ch: Chunker, stopped: () => boolean): Promise<void> {
  const skip = v.rejectedLines;
  for await (const batch of records(o.file, o.format, 'send')) {
    for (const rec of batch) {
      if (stopped()) return;
      if (!skip.has(rec.line)) await addRecord(o, v, ch, rec);
    }
  }
}

/** Stage 2: every valid record into chunks, each full chunk handed to the chunker's onChunk. */
export async function fillChunks(o: PushOptions, v: Validated, ch: Chunker, stopped: () => boolean): Promise<void> {
  await (o.format === 'ndjson' ? fillNdjson : fillRecords)(o, v, ch, stopped);
  if (!stopped()) await ch.flush();
}
