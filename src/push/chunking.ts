// Stage 2 of a push, chunking: the second read of the input fills chunks of up to 2500
// transactions over all accounts, in file order, and hands each full one on. An externalId twice in
// one request is a 400, so a second copy starts the next chunk. Data flows one way: input -> Chunk.
import { latin1 } from './by-bytes.js';
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
  current = new Chunk(this.pool);
  private index = 0;

  constructor(
    private readonly size: number,
    private readonly onChunk: (index: number, c: Chunk) => Promise<void>,
  ) {}

  /** Hands the current chunk on (if it holds anything) and starts the next. */
  async flush(): Promise<void> {
    if (this.current.size === 0) return;
    const c = this.current;
    this.current = new Chunk(this.pool);
    await this.onChunk(this.index++, c);
  }

  /** Makes room for externalId; undefined when there is room already (no promise on the fast path). */
  room(externalId: string): Promise<void> | undefined {
    return this.current.size >= this.size || this.current.idSet.has(externalId) ? this.flush() : undefined;
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
  await ch.room(ext);
  const replaced = rec.pendingIds ?? rec.tx?.pendingIds;
  // a replacement of pending transactions sent in an earlier chunk goes out only once that chunk
  // has been answered: sent side by side, it could be stored first and leave the pending ones
  if (replaced?.some((id) => !ch.current.idSet.has(id))) ch.current.barrier = true;
  ch.current.addJson(rec.json!, account.index, ext, rec.line);
}

async function fillNdjson(o: PushOptions, v: Validated, ch: Chunker, stopped: () => boolean): Promise<void> {
  const sc = new LineScan();
  const skip = v.rejectedLines.size > 0 ? v.rejectedLines : undefined;
  await eachLine(o.file, (b, s, e, line) => {
    if (stopped()) return STOP;
    if (skip?.has(line)) return;
    if (scanLine(b, s, e, sc)) {
      const ext = latin1(b, sc.externalIdStart, sc.externalIdEnd);
      const found = v.accounts.find(b, sc.accountStart, sc.accountEnd);
      if (!found) throw changed(o, line);
      const wait = ch.room(ext);
      if (!wait) return ch.current.addScanned(b, sc, found.index, ext, line);
      return wait.then(() => (stopped() ? STOP : ch.current.addScanned(b, sc, found.index, ext, line)));
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
