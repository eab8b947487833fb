// Shared by the install tests: run an installed bankctl (a path, not bin/bankctl.js of this
// checkout), a detached sandbox of its own, a connector user, and an input file large enough
// for the push to scan it in worker threads.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { CliResult } from '../helpers/cli.js';

/** Runs `command args` (an installed bankctl) with exactly `env`. */
export function runInstalled(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

export interface Detached {
  baseUrl: string;
  connectorToken: string;
}

/** Activates `user` (basic token `<user>-token`) with accounts acc-0..acc-2, through the connector API. */
export async function connectorUser(sb: Detached, user: string): Promise<void> {
  const headers = { authorization: `Token ${sb.connectorToken}`, 'content-type': 'application/json' };
  const u = await fetch(`${sb.baseUrl}/connector/users`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ externalId: user, token: `${user}-token`, market: 'SE' }),
  });
  if (u.status !== 204) throw new Error(`users: ${u.status} ${await u.text()}`);
  const accounts = [0, 1, 2].map((i) => ({
    externalId: `acc-${i}`,
    name: `Account ${i}`,
    number: `${1000 + i}`,
    balance: 0,
    type: 'CHECKING',
  }));
  const a = await fetch(`${sb.baseUrl}/connector/users/${user}/accounts`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ accounts }),
  });
  if (a.status !== 204) throw new Error(`accounts: ${a.status} ${await a.text()}`);
}

/** The push scans a file in worker threads from this size on (flows/scan-segment.ts PARALLEL_MIN_BYTES). */
export const WORKER_SCAN_BYTES = 16 * 1024 * 1024;
/** Whether this machine has the cores for the worker scan (it is skipped on one core). */
export const workersExpected = (): boolean => availableParallelism() >= 2;

/**
 * n transactions as NDJSON over acc-0..acc-2, with balances; returns the exact total of the
 * amounts in cents. The descriptions are long enough that 100,000 lines pass WORKER_SCAN_BYTES.
 */
export async function writeTransactions(file: string, n: number): Promise<bigint> {
  const out = createWriteStream(file);
  let cents = 0n;
  for (let i = 0; i < n; i++) {
    const c = BigInt((i % 997) * 100 + (i % 100) + 1) * (i % 2 ? -1n : 1n);
    cents += c;
    const abs = c < 0n ? -c : c;
    const amount = `${c < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
    const line = `{"account":"acc-${i % 3}","balance":${1000 + (i % 3)}.25,"externalId":"tx-${i}","amount":${amount},"date":${1_700_000_000_000 + i * 1000},"description":"Card purchase at merchant number ${i % 500}, Storgatan","type":"DEFAULT"}\n`;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
  return cents;
}

/** The exact total, in cents, of the `amount.value` of every NDJSON transaction in text. */
export function totalCents(ndjson: string): { count: number; ids: Set<string>; cents: bigint } {
  let count = 0;
  let cents = 0n;
  const ids = new Set<string>();
  for (const line of ndjson.split('\n')) {
    if (!line) continue;
    count++;
    const t = JSON.parse(line) as { id: string; amount: { value: { unscaledValue: string; scale: string } } };
    ids.add(t.id);
    const { unscaledValue, scale } = t.amount.value;
    cents += (BigInt(unscaledValue) * 100n) / 10n ** BigInt(scale);
  }
  return { count, ids, cents };
}
