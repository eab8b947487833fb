// Shared set-up of the connector tests: a sandbox, an activated user with accounts, input files.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { raw, type TestEnv } from '../helpers/sandbox.js';

export function connectorHeaders(env: TestEnv): Record<string, string> {
  return { authorization: `Token ${env.sandbox.connectorToken}`, 'content-type': 'application/json' };
}

export async function call(env: TestEnv, method: string, path: string, body?: unknown) {
  return raw(env.sandbox.baseUrl, method, path, {
    headers: connectorHeaders(env),
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Activates `user` and pushes accounts acc-0..acc-(n-1). */
export async function userWithAccounts(env: TestEnv, user: string, n = 1, market = 'SE'): Promise<void> {
  const u = await call(env, 'POST', '/connector/users', { externalId: user, token: `${user}-token`, market });
  if (u.status !== 204) throw new Error(`users: ${u.status} ${u.text}`);
  const accounts = Array.from({ length: n }, (_, i) => ({
    externalId: `acc-${i}`,
    name: `Account ${i}`,
    number: `${1000 + i}`,
    balance: 0,
    type: 'CHECKING',
  }));
  const a = await call(env, 'POST', `/connector/users/${user}/accounts`, { accounts });
  if (a.status !== 204) throw new Error(`accounts: ${a.status} ${a.text}`);
}

export interface Tx {
  account: string;
  externalId: string;
  amount: string;
  date: number;
  description: string;
  type: string;
  pending?: boolean;
  payload?: Record<string, unknown>;
  balance?: string;
}

/** n transactions spread round-robin over `accounts`, amounts with two decimals (as text). */
export function makeTxs(n: number, opts: { accounts?: number; prefix?: string; start?: number } = {}): Tx[] {
  const accounts = opts.accounts ?? 1;
  const out: Tx[] = [];
  for (let i = 0; i < n; i++) {
    const k = (opts.start ?? 0) + i;
    out.push({
      account: `acc-${i % accounts}`,
      externalId: `${opts.prefix ?? 'tx'}-${k}`,
      amount: `${k % 2 ? '-' : ''}${(k % 997) + 1}.${String(k % 100).padStart(2, '0')}`,
      date: 1_700_000_000_000 + k * 60_000,
      description: `Shop ${k % 50}`,
      type: 'DEFAULT',
    });
  }
  return out;
}

/** One JSON object a line; amounts written as JSON numbers with their exact text. */
export function ndjsonLine(t: Tx, balance?: string): string {
  const { amount, balance: b, ...rest } = t;
  const bal = balance ?? b;
  return JSON.stringify(rest).replace(/^\{/, `{"amount":${amount},${bal !== undefined ? `"balance":${bal},` : ''}`);
}

export function writeNdjson(dir: string, name: string, txs: Tx[], balances: Record<string, string> = {}): string {
  const file = join(dir, name);
  writeFileSync(file, txs.map((t) => ndjsonLine(t, balances[t.account] ?? '0')).join('\n') + '\n');
  return file;
}

/** Exact decimal sum of amount strings (for assertions). */
export function sum(amounts: string[]): string {
  let scale = 0;
  for (const a of amounts) scale = Math.max(scale, (a.split('.')[1] ?? '').length);
  let total = 0n;
  for (const a of amounts) {
    const [i, f = ''] = a.replace('-', '').split('.');
    const v = BigInt(i! + f.padEnd(scale, '0'));
    total += a.startsWith('-') ? -v : v;
  }
  const neg = total < 0n;
  const s = (neg ? -total : total).toString().padStart(scale + 1, '0');
  return `${neg ? '-' : ''}${s.slice(0, s.length - scale)}${scale ? `.${s.slice(s.length - scale)}` : ''}`;
}
