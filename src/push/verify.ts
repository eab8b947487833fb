// `connector verify`: counts, exact sums and a fingerprint of the transactions (externalId and
// amount, fingerprint.ts) per account from the input file, compared with what the service returns
// through /data/v2/transactions. The file is read with the push's byte scanner (ndjson); sums are
// exact (integers per scale, carried into a bigint before they could round).
import { decimalString, parseDecimal } from '../output/money.js';
import type { V1Account } from '../api/connector.js';
import type { SlimTransaction } from '../api/page-scan.js';
import { records, type InputFormat } from './input.js';
import { eachLine } from './lines.js';
import { LineScan, scanLine } from './ndjson-scan.js';
import { declinedRecord } from './ndjson.js';
import type { InputRecord } from './records.js';
import { DIGIT_0, DOT, MINUS } from './bytes.js';
import { Fingerprint, TermHash } from './fingerprint.js';

/** Below this a sum of plain numbers is still exact (with room for one more 15-digit amount). */
const SAFE = 2 ** 53 - 1e15;

export class ExactSum {
  private unscaled = 0n;
  private scale = 0;
  /** Sums in plain numbers by scale, carried into the bigint before they could lose a digit. */
  private readonly small: number[] = [];

  add(unscaled: bigint, scale: number): void {
    if (scale > this.scale) {
      this.unscaled *= 10n ** BigInt(scale - this.scale);
      this.scale = scale;
    }
    this.unscaled += unscaled * 10n ** BigInt(this.scale - scale);
  }

  /** An unscaled value of at most 15 digits, as a number: no bigint per call. */
  addSmall(unscaled: number, scale: number): void {
    if (scale < 0 || scale > 30 || !Number.isSafeInteger(unscaled) || Math.abs(unscaled) > 1e15)
      return this.add(BigInt(unscaled), scale);
    const v = (this.small[scale] ?? 0) + unscaled;
    if (Math.abs(v) < SAFE) this.small[scale] = v;
    else {
      this.small[scale] = 0;
      this.add(BigInt(v), scale);
    }
  }

  addText(text: string): void {
    const p = parseDecimal(text);
    this.add(p.unscaledValue, p.scale);
  }

  sub(text: string): void {
    const p = parseDecimal(text);
    this.add(-p.unscaledValue, p.scale);
  }

  /** The exact sum, at the largest scale of what was added. */
  parts(): { unscaled: bigint; scale: number } {
    for (let s = 0; s < this.small.length; s++)
      if (this.small[s]) {
        this.add(BigInt(this.small[s]!), s);
        this.small[s] = 0;
      }
    return { unscaled: this.unscaled, scale: this.scale };
  }
}

/**
 * Two sums as money is written: both at the larger of their scales, so "704.60" keeps its cent
 * digit and the two texts are equal exactly when the amounts are ("10.5" beside "10.50" would
 * read as a difference).
 */
export function sumTexts(a: ExactSum, b: ExactSum | undefined): [string, string] {
  const x = a.parts();
  const y = b ? b.parts() : { unscaled: 0n, scale: 0 };
  const scale = Math.max(x.scale, y.scale);
  const at = (p: { unscaled: bigint; scale: number }) =>
    decimalString(p.unscaled * 10n ** BigInt(scale - p.scale), scale);
  return [at(x), at(y)];
}

/** A plain decimal of at most 15 digits in b[s, e) (what the scanner accepts) into sum and the term. */
function addBytes(sum: ExactSum, b: Buffer, s: number, e: number, term: TermHash): void {
  let i = s;
  const negative = b[i] === MINUS;
  if (negative) i++;
  let v = 0;
  let scale = -1;
  for (; i < e; i++) {
    const c = b[i]!;
    if (c === DOT) scale = 0;
    else {
      v = v * 10 + (c - DIGIT_0);
      if (scale >= 0) scale++;
    }
  }
  sum.addSmall(negative ? -v : v, Math.max(scale, 0));
  term.amount(negative ? -v : v, Math.max(scale, 0));
}

export interface AccountTotals {
  count: number;
  sum: ExactSum;
  /** Which transactions (externalId and amount), in any order. */
  fp: Fingerprint;
  /** A read-back transaction without a providerTransactionId: the fingerprint cannot be compared. */
  unkeyed?: boolean;
  /** One transaction's providerTransactionId (the connector's externalId), to find the account in the file. */
  sample?: string;
  /** The file's account one of its transactions is a sample of (ExpectedTotals.samples), once seen. */
  fileAccount?: string;
}

export interface ExpectedTotals {
  accounts: Map<string, AccountTotals>;
  minDate: number;
  maxDate: number;
  invalid: number;
  /** Transactions a UTC day (days since 1970-01-01) holds: where to cut the read-back into ranges. */
  perDay: Map<number, number>;
  /**
   * A few booked transactions of each account (externalId -> the file's account): a read-back that
   * meets one knows which service account holds that file account, without a second pass.
   */
  samples: Map<string, string>;
}

/** Booked transactions per file account kept as samples: one lost on the service still leaves others. */
const SAMPLES_PER_ACCOUNT = 4;

const DAY_MS = 86_400_000;

class Expected {
  readonly accounts = new Map<string, AccountTotals>();
  readonly pending = new Map<string, { account: string; amount: string }>();
  readonly replaced = new Set<string>();
  minDate = Number.POSITIVE_INFINITY;
  maxDate = Number.NEGATIVE_INFINITY;
  invalid = 0;
  readonly perDay = new Map<number, number>();
  readonly samples = new Map<string, string>();
  private readonly sampled = new Map<string, number>();

  /** The externalId as a sample of account while the account has fewer than SAMPLES_PER_ACCOUNT. */
  private sample(account: string, externalId: () => string): void {
    const n = this.sampled.get(account) ?? 0;
    if (n >= SAMPLES_PER_ACCOUNT) return;
    const id = externalId();
    if (this.samples.has(id)) return;
    this.samples.set(id, account);
    this.sampled.set(account, n + 1);
  }

  private readonly term = new TermHash();

  totals(account: string): AccountTotals {
    let a = this.accounts.get(account);
    if (!a) this.accounts.set(account, (a = { count: 0, sum: new ExactSum(), fp: new Fingerprint() }));
    return a;
  }

  /** The term of a transaction known by its externalId and decimal text. */
  private termOf(externalId: string, amount: string): TermHash {
    const p = parseDecimal(amount);
    return this.term.start().id(externalId).amountBig(p.unscaledValue, p.scale);
  }

  date(d: number): void {
    if (d < this.minDate) this.minDate = d;
    if (d > this.maxDate) this.maxDate = d;
    const day = Math.floor(d / DAY_MS);
    this.perDay.set(day, (this.perDay.get(day) ?? 0) + 1);
  }

  record(r: InputRecord): void {
    if (r.error !== undefined) return void this.invalid++;
    const t = r.tx!;
    const a = this.totals(r.account!);
    a.count++;
    a.sum.addText(t.amount);
    a.fp.apply(this.termOf(t.externalId, t.amount), 1);
    if (t.pending) this.pending.set(t.externalId, { account: r.account!, amount: t.amount });
    else this.sample(r.account!, () => t.externalId);
    for (const id of t.pendingIds ?? []) this.replaced.add(id);
    this.date(t.date);
  }

  scanned(b: Buffer, sc: LineScan): void {
    const account = b.toString('utf8', sc.accountStart, sc.accountEnd);
    const a = this.totals(account);
    a.count++;
    const term = this.term.start();
    if (!term.idAscii(b, sc.externalIdStart, sc.externalIdEnd))
      term.start().id(b.toString('utf8', sc.externalIdStart, sc.externalIdEnd));
    addBytes(a.sum, b, sc.amountStart, sc.amountEnd, term);
    a.fp.apply(term, 1);
    if (sc.pending)
      this.pending.set(b.toString('utf8', sc.externalIdStart, sc.externalIdEnd), {
        account,
        amount: b.toString('latin1', sc.amountStart, sc.amountEnd),
      });
    else this.sample(account, () => b.toString('utf8', sc.externalIdStart, sc.externalIdEnd));
    this.date(Number(b.toString('latin1', sc.dateStart, sc.dateEnd)));
  }

  /** Pending transactions replaced by a booked one later in the file are not expected. */
  done(): ExpectedTotals {
    for (const id of this.replaced) {
      const p = this.pending.get(id);
      if (!p) continue;
      const a = this.accounts.get(p.account)!;
      a.count--;
      a.sum.sub(p.amount);
      a.fp.apply(this.termOf(id, p.amount), -1);
    }
    return {
      accounts: this.accounts,
      minDate: this.minDate,
      maxDate: this.maxDate,
      invalid: this.invalid,
      perDay: this.perDay,
      samples: this.samples,
    };
  }
}

/** Every valid record of the file: ndjson through the byte scanner, the rest through the readers. */
export async function eachRecord(
  file: string,
  format: InputFormat,
  onScanned: (b: Buffer, sc: LineScan) => void,
  onRecord: (r: InputRecord) => void,
): Promise<void> {
  if (format !== 'ndjson') {
    for await (const batch of records(file, format)) for (const r of batch) onRecord(r);
    return;
  }
  const sc = new LineScan();
  await eachLine(file, (b, s, e, line) => {
    if (scanLine(b, s, e, sc)) return onScanned(b, sc);
    const r = declinedRecord(b, s, e, line);
    if (r !== undefined) onRecord(r);
  });
}

/** What the file says the service should hold: valid records, less pending ones replaced later. */
export async function expectedFromFile(file: string, format: InputFormat): Promise<ExpectedTotals> {
  const x = new Expected();
  await eachRecord(
    file,
    format,
    (b, sc) => x.scanned(b, sc),
    (r) => x.record(r),
  );
  return x.done();
}

export interface VerifyRow {
  account: string;
  expectedCount: number;
  actualCount: number;
  expectedSum: string;
  actualSum: string;
  /**
   * Whether the service holds the file's transactions (externalId and amount), not only as many
   * with the same sum; null when its transactions carry no providerTransactionId to tell.
   */
  sameTransactions: boolean | null;
  ok: boolean;
}

/** A v2 amount's unscaled value into sum and the term: plain numbers when they are (no bigint per transaction). */
function addAmount(sum: ExactSum, unscaled: string | number, scale: number, term: TermHash | undefined): void {
  const n = typeof unscaled === 'number' ? unscaled : unscaled.length <= 15 ? Number(unscaled) : NaN;
  if (Number.isSafeInteger(n)) {
    sum.addSmall(n, scale);
    if (scale >= 0) term?.amount(n, scale);
    else term?.amountBig(BigInt(n), scale);
    return;
  }
  const big = BigInt(String(unscaled));
  sum.add(big, scale);
  term?.amountBig(big, scale);
}

const pageTerm = new TermHash();

/**
 * One page folded into per-account totals (constant memory per account). With the file's samples,
 * a service account not yet paired is paired by the first of its transactions that is one.
 */
export function foldPage(
  out: Map<string, AccountTotals>,
  page: SlimTransaction[],
  samples?: ReadonlyMap<string, string>,
): void {
  for (const t of page) {
    let a = out.get(t.accountId);
    if (!a)
      out.set(
        t.accountId,
        (a = { count: 0, sum: new ExactSum(), fp: new Fingerprint(), sample: t.providerTransactionId }),
      );
    a.count++;
    const id = t.providerTransactionId;
    if (id === undefined) a.unkeyed = true;
    addAmount(a.sum, t.unscaledValue, Number(t.scale), id === undefined ? undefined : pageTerm.start().id(id));
    if (id !== undefined) a.fp.apply(pageTerm, 1);
    if (a.fileAccount === undefined && samples !== undefined && t.providerTransactionId !== undefined)
      a.fileAccount = samples.get(t.providerTransactionId);
  }
}

/**
 * The pairs (file account -> service account) the read-back met through the file's samples; undefined
 * unless every account of the file that the account list does not pair is among them (then the
 * caller pairs by a second pass over the file, pairBySamples, as before).
 */
export function pairedByReadBack(
  expected: ExpectedTotals,
  actual: Map<string, AccountTotals>,
  accounts: V1Account[],
): Map<string, string> | undefined {
  const idOf = new Map<string, string>();
  for (const [id, a] of actual)
    if (a.fileAccount !== undefined && !idOf.has(a.fileAccount)) idOf.set(a.fileAccount, id);
  const listed = listedExternalIds(accounts);
  for (const ext of expected.accounts.keys()) if (!idOf.has(ext) && !listed.has(ext)) return undefined;
  return idOf;
}

/** An inclusive range of booked dates, YYYY-MM-DD. */
export interface DateRange {
  gte: string;
  lte: string;
}

const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * The file's date range cut into at most `parts` adjacent ranges holding about as many of its
 * transactions each (whole days; a day is never split), to read back side by side: together they
 * cover every day from the first to the last, so nothing the service holds in between is missed.
 */
export function dateRanges(expected: ExpectedTotals, parts: number): DateRange[] {
  if (!Number.isFinite(expected.minDate)) return [];
  const first = Math.floor(expected.minDate / DAY_MS);
  const last = Math.floor(expected.maxDate / DAY_MS);
  const days = [...expected.perDay].sort((a, b) => a[0] - b[0]);
  const total = days.reduce((n, [, c]) => n + c, 0);
  const out: DateRange[] = [];
  let start = first;
  let seen = 0;
  for (const [day, count] of days) {
    seen += count;
    if (out.length === parts - 1 || day >= last) break;
    // close a range once it holds its share of what is left
    if (seen >= (total * (out.length + 1)) / parts) {
      out.push({ gte: isoDay(start), lte: isoDay(day) });
      start = day + 1;
    }
  }
  out.push({ gte: isoDay(start), lte: isoDay(last) });
  return out;
}

/**
 * Which service account holds which file account: one transaction of each service account is
 * looked up in the file by its externalId (one more streaming pass, memory per account only).
 */
export async function pairBySamples(
  file: string,
  format: InputFormat,
  actual: Map<string, AccountTotals>,
): Promise<Map<string, string>> {
  const wanted = new Map<string, string>();
  for (const [id, a] of actual) if (a.sample !== undefined) wanted.set(a.sample, id);
  const idOf = new Map<string, string>();
  if (wanted.size === 0) return idOf;
  const found = (externalId: string, account: string) => {
    const id = wanted.get(externalId);
    if (id !== undefined && !idOf.has(account)) idOf.set(account, id);
  };
  await eachRecord(
    file,
    format,
    (b, sc) =>
      found(
        b.toString('utf8', sc.externalIdStart, sc.externalIdEnd),
        b.toString('utf8', sc.accountStart, sc.accountEnd),
      ),
    (r) => r.error === undefined && found(r.tx!.externalId, r.account!),
  );
  return idOf;
}

/** The externalIds the service's account list shows (the v1 list usually shows none). */
function listedExternalIds(accounts: V1Account[]): Set<unknown> {
  return new Set(accounts.map((a) => a.externalId).filter((x) => typeof x === 'string'));
}

/** Whether every account of the file is paired through the account list's externalIds. */
export function pairedByList(expected: ExpectedTotals, accounts: V1Account[]): boolean {
  const listed = listedExternalIds(accounts);
  for (const ext of expected.accounts.keys()) if (!listed.has(ext)) return false;
  return true;
}

/**
 * Pairs the file's accounts (by externalId) with the service's (by id): through an externalId the
 * account list shows, else through sample transactions. Unpaired ones count as drift.
 */
export function compare(
  expected: ExpectedTotals,
  actual: Map<string, AccountTotals>,
  accounts: V1Account[],
  paired: Map<string, string> = new Map(),
): VerifyRow[] {
  const idOf = new Map<string, string>(paired);
  for (const a of accounts) {
    const ext = typeof a.externalId === 'string' ? a.externalId : undefined;
    if (ext !== undefined) idOf.set(ext, a.id);
  }
  const rows: VerifyRow[] = [];
  for (const [ext, e] of expected.accounts) {
    const id = idOf.get(ext);
    const a = id !== undefined ? actual.get(id) : undefined;
    const actualCount = a?.count ?? 0;
    const [expectedSum, actualSum] = sumTexts(e.sum, a?.sum);
    const sameTransactions = a?.unkeyed ? null : e.fp.equals(a?.fp ?? new Fingerprint());
    const ok = e.count === actualCount && expectedSum === actualSum && sameTransactions !== false;
    rows.push({ account: ext, expectedCount: e.count, actualCount, expectedSum, actualSum, sameTransactions, ok });
  }
  return rows;
}
