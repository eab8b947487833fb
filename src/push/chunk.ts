// A chunk of a push: up to 2500 transactions as the wire JSON bytes of each, grouped by account the
// way the request body lists them, so a body is a handful of copies.
import { ACCOUNT_KINDS, type LineScan } from './ndjson-scan.js';
import { COMMA, LEFT_BRACE, RIGHT_BRACE, RIGHT_BRACKET } from './bytes.js';
import type { AccountInfo } from './types.js';
import { hashBytes } from './by-bytes.js';

/**
 * Per transaction of a chunk: its account, where its JSON is in that account's part, its input line
 * and its externalId's bytes, with an open-addressing table of those ids. Typed arrays, reused from
 * chunk to chunk: the second pass allocates nothing per transaction (strings, array and Set entries
 * per line kept the young generation growing and the push's peak RSS rising with its length).
 */
class Slots {
  account: Int32Array;
  start: Int32Array;
  end: Int32Array;
  line: Float64Array;
  /** Transaction i's externalId is idBytes[idStart[i], idStart[i + 1]) (UTF-8). */
  idStart: Int32Array;
  idBytes: Buffer;
  /** Item + 1 by the hash of its externalId (0: free); a power of two at least twice the capacity. */
  table: Int32Array;

  constructor(readonly capacity: number) {
    this.account = new Int32Array(capacity);
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
    this.line = new Float64Array(capacity);
    this.idStart = new Int32Array(capacity + 1);
    this.idBytes = Buffer.allocUnsafe(Math.max(capacity * 32, 1024));
    let t = 16;
    while (t < 2 * capacity) t *= 2;
    this.table = new Int32Array(t);
  }
}

/** Whether a[s, s + len) and b[t, t + len) hold the same bytes. */
function sameBytesAt(a: Uint8Array, s: number, b: Uint8Array, t: number, len: number): boolean {
  for (let k = 0; k < len; k++) if (a[s + k] !== b[t + k]) return false;
  return true;
}

/** A free buffer of at least n bytes, taken out of free; undefined when none is that large. */
function takeFit(free: Buffer[], n: number): Buffer | undefined {
  for (let i = free.length - 1; i >= 0; i--) {
    if (free[i]!.length < n) continue;
    const b = free[i]!;
    free[i] = free[free.length - 1]!;
    free.pop();
    return b;
  }
  return undefined;
}

/** An empty Slots for a released chunk: anything read from it after release is plainly missing. */
const RELEASED = new Slots(0);

/**
 * The buffers of chunk parts and the chunks' per-transaction slots, handed back when a chunk is
 * done: a push cycles through a few of them instead of allocating (and growing) fresh ones per
 * chunk, which kept the peak RSS up. Request bodies have their own pool (BodyBuffers): the HTTP
 * client may hold one after the answer, so only it says when one is free.
 */
export class PartBuffers {
  private readonly free: Buffer[] = [];
  private readonly freeSlots: Slots[] = [];

  get(n: number): Buffer {
    return takeFit(this.free, n) ?? Buffer.allocUnsafe(Math.max(n, 4096));
  }

  put(b: Buffer): void {
    if (this.free.length < 32) this.free.push(b);
  }

  slots(capacity: number): Slots {
    const s = this.freeSlots.pop();
    return s && s.capacity >= capacity ? s : new Slots(capacity);
  }

  putSlots(s: Slots): void {
    if (s === RELEASED || this.freeSlots.length >= 8) return;
    s.table.fill(0);
    this.freeSlots.push(s);
  }
}

/**
 * Request bodies, reused once the HTTP client says nothing holds one any more (a 2xx read, no
 * attempt abandoned: RequestOptions.onBodyDone). A fresh body per chunk left 10 to 25 MB of
 * answered bodies waiting for V8 to notice them, more the longer a push ran. A body the client
 * never calls back for is simply not reused.
 */
export class BodyBuffers {
  private readonly free: Buffer[] = [];
  private readonly owned = new WeakSet<ArrayBufferLike>();

  /** A buffer of at least n bytes, its own memory (never a slice of Node's shared pool). */
  get(n: number): Buffer {
    const reused = takeFit(this.free, n);
    if (reused) return reused;
    const b = Buffer.allocUnsafeSlow(n + (n >> 3));
    this.owned.add(b.buffer);
    return b;
  }

  /** A body (or a slice of one) that get() gave: its whole buffer may be handed out again (once). */
  put(body: Buffer): void {
    if (!this.owned.has(body.buffer) || this.free.length >= 8) return;
    // handed back twice, it would be given to two chunks at once
    if (this.free.some((b) => b.buffer === body.buffer)) return;
    this.free.push(Buffer.from(body.buffer, 0, body.buffer.byteLength));
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

/** Copies the runs of a scanned line's members that are not the account's, as one JSON object, to d[p...]. */
function copyMembers(b: Buffer, sc: LineScan, d: Buffer, p: number): number {
  d[p++] = LEFT_BRACE;
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
    if (!first) d[p++] = COMMA;
    // a loop beats Buffer#copy for a line's worth of bytes (no view allocated per call)
    for (let k = runStart; k < runEnd; k++) d[p++] = b[k]!;
    first = false;
    runStart = -1;
  }
  d[p++] = RIGHT_BRACE;
  return p;
}

export class Chunk {
  /** By account index, in the order the accounts first appear in the chunk. */
  readonly parts = new Map<number, Part>();
  private s: Slots;
  private n = 0;
  /**
   * It replaces pending transactions (PENDING_IDS) that an earlier chunk holds: it is sent only once
   * every chunk before it has been answered.
   */
  barrier = false;

  constructor(
    private readonly pool = new PartBuffers(),
    capacity = 2500,
  ) {
    this.s = pool.slots(capacity);
  }

  get size(): number {
    return this.n;
  }

  /** Transaction i is one of this chunk's, and the chunk has not been released. */
  private check(i: number): void {
    if (!(i >= 0 && i < this.n && this.s !== RELEASED)) throw new RangeError(`no transaction ${i} in this chunk`);
  }

  /** Transaction i's account index. */
  accountOf(i: number): number {
    this.check(i);
    return this.s.account[i]!;
  }

  /** Transaction i's input line. */
  lineOf(i: number): number {
    this.check(i);
    return this.s.line[i]!;
  }

  /** Transaction i's externalId. */
  idOf(i: number): string {
    this.check(i);
    return this.s.idBytes.toString('utf8', this.s.idStart[i], this.s.idStart[i + 1]);
  }

  /** Transaction i's wire JSON, as the body carries it. */
  wireOf(i: number): string {
    this.check(i);
    return this.parts.get(this.s.account[i]!)!.data.toString('utf8', this.s.start[i], this.s.end[i]);
  }

  /** Done with: the parts' buffers and the slots go back to the pool. */
  release(): void {
    for (const part of this.parts.values()) this.pool.put(part.data);
    this.parts.clear();
    this.pool.putSlots(this.s);
    this.s = RELEASED;
  }

  /** The table index of the externalId b[s, e), or of the free place it would take. */
  private probe(b: Uint8Array, s: number, e: number): number {
    const { table, idStart, idBytes } = this.s;
    const mask = table.length - 1;
    const len = e - s;
    for (let h = hashBytes(b, s, e) & mask; ; h = (h + 1) & mask) {
      const item = table[h]! - 1;
      if (item < 0) return h;
      const at = idStart[item]!;
      if (idStart[item + 1]! - at === len && sameBytesAt(b, s, idBytes, at, len)) return h;
    }
  }

  /** Whether the chunk holds the externalId b[s, e). */
  hasId(b: Uint8Array, s: number, e: number): boolean {
    return this.s.table[this.probe(b, s, e)] !== 0;
  }

  /** Whether the chunk holds externalId. */
  hasIdText(externalId: string): boolean {
    const b = Buffer.from(externalId);
    return this.hasId(b, 0, b.length);
  }

  private grow(): void {
    const old = this.s;
    const s = this.pool.slots(old.capacity * 2);
    const used = old.idStart[this.n]!;
    s.account.set(old.account.subarray(0, this.n));
    s.start.set(old.start.subarray(0, this.n));
    s.end.set(old.end.subarray(0, this.n));
    s.line.set(old.line.subarray(0, this.n));
    s.idStart.set(old.idStart.subarray(0, this.n + 1));
    if (s.idBytes.length < used) s.idBytes = Buffer.allocUnsafe(2 * used);
    old.idBytes.copy(s.idBytes, 0, 0, used);
    this.s = s;
    for (let i = 0; i < this.n; i++) s.table[this.probe(s.idBytes, s.idStart[i]!, s.idStart[i + 1]!)] = i + 1;
    this.pool.putSlots(old);
  }

  private part(account: number, n: number): Part {
    let part = this.parts.get(account);
    if (!part) this.parts.set(account, (part = new Part(this.pool)));
    part.reserve(n + 1);
    if (part.length > 0) part.data[part.length++] = COMMA;
    return part;
  }

  /** Records transaction n's place and its externalId, b[s, e). */
  private added(account: number, from: number, to: number, b: Uint8Array, s: number, e: number, line: number): void {
    if (this.n === this.s.capacity) this.grow();
    const slots = this.s;
    const i = this.n++;
    slots.account[i] = account;
    slots.start[i] = from;
    slots.end[i] = to;
    slots.line[i] = line;
    const at = slots.idStart[i]!;
    if (at + e - s > slots.idBytes.length) {
      const bigger = Buffer.allocUnsafe(2 * (at + e - s));
      slots.idBytes.copy(bigger, 0, 0, at);
      slots.idBytes = bigger;
    }
    const d = slots.idBytes;
    for (let k = s; k < e; k++) d[at + k - s] = b[k]!;
    slots.idStart[i + 1] = at + e - s;
    // a second copy of an id in one chunk is never added (the chunker starts the next chunk first)
    const h = this.probe(d, at, at + e - s);
    if (slots.table[h] === 0) slots.table[h] = i + 1;
  }

  /** A scanned line's members, less the account's, as a JSON object: runs of members copied as written. */
  addScanned(b: Buffer, sc: LineScan, account: number, line: number): void {
    const part = this.part(account, sc.memberEnd[sc.members - 1]! - sc.memberStart[0]! + 2);
    const from = part.length;
    part.length = copyMembers(b, sc, part.data, from);
    this.added(account, from, part.length, b, sc.externalIdStart, sc.externalIdEnd, line);
  }

  addJson(json: string, account: number, externalId: string, line: number): void {
    const n = Buffer.byteLength(json);
    const part = this.part(account, n);
    const from = part.length;
    part.length += part.data.write(json, from, n, 'utf8');
    const id = Buffer.from(externalId);
    this.added(account, from, part.length, id, 0, id.length, line);
  }

  /** The transactions of items by account, and the body's size with them. */
  private select(
    head: Buffer,
    accounts: AccountInfo[],
    items: number[],
  ): { selected: Map<number, number[]>; bytes: number } {
    const selected = new Map<number, number[]>();
    let bytes = head.length + 2;
    for (const i of items) {
      const acc = this.s.account[i]!;
      let list = selected.get(acc);
      if (!list) selected.set(acc, (list = []));
      list.push(i);
      bytes += this.s.end[i]! - this.s.start[i]! + 1;
    }
    for (const acc of selected.keys()) bytes += accounts[acc]!.head!.length + 3;
    return { selected, bytes };
  }

  /** The request body: for the whole chunk, or for some of its transactions (their places). */
  body(head: Buffer, accounts: AccountInfo[], items?: number[], bodies?: BodyBuffers): Buffer {
    if (items && items.length === this.size) items = undefined;
    let selected: Map<number, number[]> | undefined;
    let bytes = head.length + 2;
    if (items) ({ selected, bytes } = this.select(head, accounts, items));
    else for (const [acc, part] of this.parts) bytes += accounts[acc]!.head!.length + part.length + 3;
    const out = bodies ? bodies.get(bytes) : Buffer.allocUnsafe(bytes);
    let p = head.copy(out, 0);
    let firstAccount = true;
    for (const acc of selected ? selected.keys() : this.parts.keys()) {
      if (!firstAccount) out[p++] = COMMA;
      firstAccount = false;
      p += accounts[acc]!.head!.copy(out, p);
      const part = this.parts.get(acc)!;
      if (!selected) p += part.data.copy(out, p, 0, part.length);
      else {
        const list = selected.get(acc)!;
        for (let k = 0; k < list.length; k++) {
          if (k > 0) out[p++] = COMMA;
          p += part.data.copy(out, p, this.s.start[list[k]!]!, this.s.end[list[k]!]!);
        }
      }
      out[p++] = RIGHT_BRACKET;
      out[p++] = RIGHT_BRACE;
    }
    out[p++] = RIGHT_BRACKET;
    out[p++] = RIGHT_BRACE;
    return out.subarray(0, p);
  }
}
