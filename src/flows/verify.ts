// `connector verify`: counts and exact sums per account from the input file, compared with what the
// service returns through /data/v2/transactions. Sums are bigints at a common scale: no floats.
import { decimalString, parseDecimal } from '../output/money.js';
import { records, type InputFormat } from './push-input.js';
import type { V1Account, V2Transaction } from '../api/connector.js';

export class ExactSum {
  private unscaled = 0n;
  private scale = 0;
  add(unscaled: bigint, scale: number): void {
    if (scale > this.scale) {
      this.unscaled *= 10n ** BigInt(scale - this.scale);
      this.scale = scale;
    }
    this.unscaled += unscaled * 10n ** BigInt(this.scale - scale);
  }
  addText(text: string): void {
    const p = parseDecimal(text);
    this.add(p.unscaledValue, p.scale);
  }
  sub(text: string): void {
    const p = parseDecimal(text);
    this.add(-p.unscaledValue, p.scale);
  }
  toString(): string {
    // drop trailing zeros so "10.50" and "10.5" compare equal
    let u = this.unscaled;
    let s = this.scale;
    while (s > 0 && u % 10n === 0n) {
      u /= 10n;
      s--;
    }
    return decimalString(u, s);
  }
}

export interface AccountTotals {
  count: number;
  sum: ExactSum;
  /** One transaction's providerTransactionId (the connector's externalId), to find the account in the file. */
  sample?: string;
}

export interface ExpectedTotals {
  accounts: Map<string, AccountTotals>;
  minDate: number;
  maxDate: number;
  invalid: number;
}

/** What the file says the service should hold: valid records, less pending ones replaced later. */
export async function expectedFromFile(file: string, format: InputFormat): Promise<ExpectedTotals> {
  const accounts = new Map<string, AccountTotals>();
  const pending = new Map<string, { account: string; amount: string }>();
  const replaced = new Set<string>();
  let minDate = Number.POSITIVE_INFINITY;
  let maxDate = Number.NEGATIVE_INFINITY;
  let invalid = 0;
  for await (const batch of records(file, format))
    for (const r of batch) {
      if (r.error !== undefined) {
        invalid++;
        continue;
      }
      const t = r.tx!;
      let a = accounts.get(r.account!);
      if (!a) accounts.set(r.account!, (a = { count: 0, sum: new ExactSum() }));
      a.count++;
      a.sum.addText(t.amount);
      if (t.pending) pending.set(t.externalId, { account: r.account!, amount: t.amount });
      for (const id of t.pendingIds ?? []) replaced.add(id);
      if (t.date < minDate) minDate = t.date;
      if (t.date > maxDate) maxDate = t.date;
    }
  for (const id of replaced) {
    const p = pending.get(id);
    if (!p) continue;
    const a = accounts.get(p.account)!;
    a.count--;
    a.sum.sub(p.amount);
  }
  return { accounts, minDate, maxDate, invalid };
}

export interface VerifyRow {
  account: string;
  expectedCount: number;
  actualCount: number;
  expectedSum: string;
  actualSum: string;
  ok: boolean;
}

/** Reads back, page by page, and folds into per-account totals (constant memory per account). */
export async function actualTotals(pages: AsyncIterable<V2Transaction[]>): Promise<Map<string, AccountTotals>> {
  const out = new Map<string, AccountTotals>();
  for await (const page of pages) {
    for (const t of page) {
      let a = out.get(t.accountId);
      if (!a)
        out.set(t.accountId, (a = { count: 0, sum: new ExactSum(), sample: t.identifiers?.providerTransactionId }));
      a.count++;
      a.sum.add(BigInt(String(t.amount.value.unscaledValue)), Number(t.amount.value.scale));
    }
  }
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
  for await (const batch of records(file, format))
    for (const r of batch) {
      if (r.error !== undefined) continue;
      const id = wanted.get(r.tx!.externalId);
      if (id !== undefined && !idOf.has(r.account!)) idOf.set(r.account!, id);
    }
  return idOf;
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
    const row: VerifyRow = {
      account: ext,
      expectedCount: e.count,
      actualCount: a?.count ?? 0,
      expectedSum: e.sum.toString(),
      actualSum: a?.sum.toString() ?? '0',
      ok: false,
    };
    row.ok = row.expectedCount === row.actualCount && row.expectedSum === row.actualSum;
    rows.push(row);
  }
  return rows;
}
