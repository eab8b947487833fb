// A chunk of a push: up to 2500 transactions as the wire JSON bytes of each, grouped by account the
// way the request body lists them, so a body is a handful of copies.
import { ACCOUNT_KINDS, type LineScan } from './ndjson-scan.js';
import { COMMA, LEFT_BRACE, RIGHT_BRACE, RIGHT_BRACKET } from './bytes.js';
import type { AccountInfo } from './types.js';

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
  /** Per transaction: its account, where its JSON is in that account's part, its input line. */
  readonly account: number[] = [];
  readonly start: number[] = [];
  readonly end: number[] = [];
  readonly ids: string[] = [];
  readonly lines: number[] = [];
  readonly idSet = new Set<string>();
  /**
   * It replaces pending transactions (PENDING_IDS) that an earlier chunk holds: it is sent only once
   * every chunk before it has been answered.
   */
  barrier = false;

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
    if (part.length > 0) part.data[part.length++] = COMMA;
    return part;
  }

  private added(account: number, from: number, to: number, externalId: string, line: number): void {
    this.account.push(account);
    this.start.push(from);
    this.end.push(to);
    this.ids.push(externalId);
    this.lines.push(line);
    this.idSet.add(externalId);
  }

  /** A scanned line's members, less the account's, as a JSON object: runs of members copied as written. */
  addScanned(b: Buffer, sc: LineScan, account: number, externalId: string, line: number): void {
    const part = this.part(account, sc.memberEnd[sc.members - 1]! - sc.memberStart[0]! + 2);
    const from = part.length;
    part.length = copyMembers(b, sc, part.data, from);
    this.added(account, from, part.length, externalId, line);
  }

  addJson(json: string, account: number, externalId: string, line: number): void {
    const n = Buffer.byteLength(json);
    const part = this.part(account, n);
    const from = part.length;
    part.length += part.data.write(json, from, n, 'utf8');
    this.added(account, from, part.length, externalId, line);
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
      const acc = this.account[i]!;
      let list = selected.get(acc);
      if (!list) selected.set(acc, (list = []));
      list.push(i);
      bytes += this.end[i]! - this.start[i]! + 1;
    }
    for (const acc of selected.keys()) bytes += accounts[acc]!.head!.length + 3;
    return { selected, bytes };
  }

  /** The request body: for the whole chunk, or for some of its transactions (their places). */
  body(head: Buffer, accounts: AccountInfo[], items?: number[]): Buffer {
    if (items && items.length === this.size) items = undefined;
    let selected: Map<number, number[]> | undefined;
    let bytes = head.length + 2;
    if (items) ({ selected, bytes } = this.select(head, accounts, items));
    else for (const [acc, part] of this.parts) bytes += accounts[acc]!.head!.length + part.length + 3;
    const out = Buffer.allocUnsafe(bytes);
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
          p += part.data.copy(out, p, this.start[list[k]!]!, this.end[list[k]!]!);
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
