// Stage 3 of a push, sending: chunks go out with bounded concurrency; a 409/410 takes out what the
// service already has (or had) and sends the rest; a 400 names the input line of the record it
// points at; each answered chunk is recorded in the checkpoint. Data flows one way: Chunk -> service.
import { ApiError } from '../errors.js';
import type { Checkpoint } from './checkpoint.js';
import { BodyBuffers, type Chunk } from './chunk.js';
import type { AccountInfo, ChunkResult, PushHooks, PushOptions, PushSummary } from './types.js';

/** The transactionAccounts[i].transactions[j] a 400 points at, from its field or its message. */
const POINTER = /transactionAccounts\[(\d+)\]\.transactions\[(\d+)\]/;

/** The input line of a 400's record: items laid out by account in the body's order. */
function lineOf400(err: ApiError, c: Chunk, items: number[]): number | undefined {
  const details = (err.body as { errorDetails?: { field?: unknown } } | undefined)?.errorDetails;
  const m = POINTER.exec(typeof details?.field === 'string' ? details.field : '') ?? POINTER.exec(err.message);
  if (!m) return undefined;
  const byAccount = new Map<number, number[]>();
  if (items.length === c.size) for (const acc of c.parts.keys()) byAccount.set(acc, []);
  for (const i of items) {
    const acc = c.accountOf(i);
    if (!byAccount.has(acc)) byAccount.set(acc, []);
    byAccount.get(acc)!.push(i);
  }
  const item = [...byAccount.values()][Number(m[1])]?.[Number(m[2])];
  return item === undefined ? undefined : c.lineOf(item);
}

/**
 * The service has none of the user's accounts (412, spec: "no accounts found for the user") or not the
 * chunk's (a 400 saying an account does not exist): `connector push` sends transactions into accounts
 * that `connector accounts push` made.
 */
function missingAccounts(err: ApiError): boolean {
  if (err.status === 412) return true;
  return err.status === 400 && /\baccount\b[^]*\bdoes not exist\b/i.test(err.serviceMessage);
}

export class Sender {
  private readonly inflight = new Set<Promise<void>>();
  private readonly bodies = new BodyBuffers();
  failure: unknown;
  /** Transactions answered for (delivered, duplicates, gone), resumed ones included. */
  done: number;

  constructor(
    private readonly o: PushOptions,
    private readonly hooks: PushHooks,
    private readonly summary: PushSummary,
    private readonly accounts: AccountInfo[],
    private readonly bodyHead: Buffer,
    private readonly checkpoint?: Checkpoint,
  ) {
    this.done = summary.delivered + summary.duplicates + summary.gone;
  }

  get stopped(): boolean {
    return this.failure !== undefined || this.hooks.signal.aborted;
  }

  /** A 409/410 answer: what the service named (or, split in halves, found) is counted, the rest resent. */
  private async known(err: ApiError, c: Chunk, items: number[], r: ChunkResult, resent: boolean): Promise<void> {
    // a 409 on a resent chunk is this push's own delivery (resent is then true): one that an
    // interrupted run sent without recording, or one this run sent again (a lost answer, a 429/5xx)
    const kind = err.status === 410 ? 'gone' : resent ? 'delivered' : 'duplicates';
    const set = err.namedExternalIds();
    if (set) {
      const known = items.filter((i) => set.has(c.idOf(i)));
      if (known.length > 0) {
        for (const i of known) this.accounts[c.accountOf(i)]![kind]++;
        r[kind] += known.length;
        const rest = items.filter((i) => !set.has(c.idOf(i)));
        if (rest.length > 0) await this.deliver(c, rest, r, resent);
        return;
      }
    }
    if (items.length === 1) {
      this.accounts[c.accountOf(items[0]!)]![kind]++;
      r[kind]++;
      return;
    }
    const half = Math.ceil(items.length / 2);
    await this.deliver(c, items.slice(0, half), r, resent);
    await this.deliver(c, items.slice(half), r, resent);
  }

  /**
   * Sends items (all of the chunk when undefined: no array of its 2500 places per chunk, which
   * outlived young-generation GCs while in flight); on 409/410 takes out what the service already
   * has (or had) and sends the rest.
   */
  private async deliver(c: Chunk, items: number[] | undefined, r: ChunkResult, resent: boolean): Promise<void> {
    // each HTTP attempt counts, retries included; a sender that reports none made one
    let attempts = 0;
    // an attempt that ended without an answer may have been stored: a 409 after it is this push's own
    let lost = false;
    const attempt = (): void => {
      attempts++;
      r.requests++;
      this.summary.requests++;
    };
    try {
      const body = c.body(this.bodyHead, this.accounts, items, this.bodies);
      await this.hooks
        .send(body, this.hooks.signal, {
          // not after a lost attempt, even one of an earlier core call (a 401's resend): undici may
          // still hold that attempt's body
          done: () => void (lost || this.bodies.put(body)),
          attempt,
          lost: () => (lost = true),
        })
        .finally(() => attempts === 0 && attempt());
      if (items) for (const i of items) this.accounts[c.accountOf(i)]!.delivered++;
      else for (let i = 0; i < c.size; i++) this.accounts[c.accountOf(i)]!.delivered++;
      r.delivered += items ? items.length : c.size;
    } catch (err) {
      const places = items ?? Array.from({ length: c.size }, (_, i) => i);
      if (err instanceof ApiError && (err.status === 409 || err.status === 410))
        return this.known(err, c, places, r, resent || lost || attempts > 1);
      if (err instanceof ApiError && missingAccounts(err))
        err.hint ??= `create the accounts first with: bankctl connector accounts push --user ${this.o.user} --file ACCOUNTS; --accounts gives only their balances`;
      const line = err instanceof ApiError && err.status === 400 ? lineOf400(err, c, places) : undefined;
      // the exit code and the service's answer stay; the message leads with the input line
      if (line !== undefined)
        (err as Error).message =
          `${this.o.displayName}:${line}: the service rejected this record: ${(err as Error).message}`;
      throw err;
    }
  }

  private answered(index: number, n: number, r: ChunkResult, t0: number): void {
    const { summary, checkpoint } = this;
    r.ms = this.hooks.now() - t0;
    summary.delivered += r.delivered;
    summary.duplicates += r.duplicates;
    summary.gone += r.gone;
    this.done += n;
    this.hooks.onProgress?.(this.done);
    if (!checkpoint) return;
    checkpoint.delivered.add(index);
    checkpoint.sending.delete(index);
    checkpoint.unconfirmed.delete(index);
    checkpoint.totals = { delivered: summary.delivered, duplicates: summary.duplicates, gone: summary.gone };
    checkpoint.save();
  }

  /** Sends chunk index once a slot is free (resolves when it is on its way, not when answered). */
  async dispatch(index: number, c: Chunk, r: ChunkResult): Promise<void> {
    // chunks go out in order, so what is in flight is all before this one
    const room = c.barrier ? 1 : this.o.concurrency;
    while (this.inflight.size >= room) await Promise.race(this.inflight);
    if (this.stopped) {
      r.status = 'failed';
      return c.release();
    }
    const t0 = this.hooks.now();
    this.summary.sent += c.size;
    const resent = this.checkpoint?.unconfirmed.has(index) ?? false;
    if (resent) r.resent = true;
    if (this.checkpoint) {
      this.checkpoint.sending.add(index);
      this.checkpoint.save();
    }
    const p = this.deliver(c, undefined, r, resent)
      .then(() => this.answered(index, c.size, r, t0))
      .catch((err: unknown) => {
        r.status = 'failed';
        r.ms = this.hooks.now() - t0;
        r.error = err instanceof Error ? err.message : String(err);
        this.failure ??= err;
      })
      .finally(() => {
        c.release();
        this.inflight.delete(p);
      });
    this.inflight.add(p);
  }

  /** Waits for every chunk in flight. */
  async drain(): Promise<void> {
    await Promise.all(this.inflight);
  }
}
