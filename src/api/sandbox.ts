// The sandbox's test bench (issue 17): typed calls of its /sandbox/* endpoints, and the probe that
// tells the sandbox from the real service (its /openapi.json says so) before anything is sent.
import { EP } from '../contract/index.js';
import { ApiError, NetworkError, UsageError } from '../errors.js';
import type { ApiClient } from './client.js';
import type { LogEntry } from '../contract/wire.js';

export type { LogEntry };

type Probe = 'sandbox' | 'other' | 'unreachable';
const probed = new WeakMap<ApiClient, Promise<Probe>>();

function probe(api: ApiClient): Promise<Probe> {
  let p = probed.get(api);
  if (!p) {
    p = api
      .data<{ info?: Record<string, unknown> }>(EP.bench.openapi, { retries: 0, timeoutMs: 5000 })
      .then((doc): Probe => (doc?.info?.['x-bankctl-sandbox'] === true ? 'sandbox' : 'other'))
      .catch((err: unknown): Probe => (err instanceof NetworkError ? 'unreachable' : 'other'));
    probed.set(api, p);
  }
  return p;
}

/** Whether the base URL is a bankctl sandbox: its /openapi.json carries info.x-bankctl-sandbox. */
export async function isSandbox(api: ApiClient): Promise<boolean> {
  return (await probe(api)) === 'sandbox';
}

/** Refuses (exit 2) a command that needs the sandbox when the profile points elsewhere, or at nothing. */
export async function requireSandbox(api: ApiClient, what: string, baseUrl: string): Promise<void> {
  const found = await probe(api);
  if (found === 'sandbox') return;
  // nothing listening (the usual case: no sandbox started) is said as such, not as "not a sandbox"
  const problem = found === 'unreachable' ? `no sandbox is running at ${baseUrl}` : `${baseUrl} is not one`;
  throw new UsageError(`${what} needs the bankctl sandbox, and ${problem}`, {
    hint: 'start one with `bankctl sandbox start` (the default profile then uses it), or pass --base-url of a running sandbox',
  });
}

/** A 400 of the sandbox as a usage error (exit 2) naming its field; everything else as it is. */
export function usageOn400(err: unknown): never {
  if (err instanceof ApiError && err.status === 400) {
    const field = (err.body as { errorDetails?: { field?: unknown } } | undefined)?.errorDetails?.field;
    throw new UsageError(err.serviceMessage || err.message, {
      hint: typeof field === 'string' ? `the sandbox refused ${field}` : undefined,
    });
  }
  throw err;
}

export interface CredentialsView {
  id: string;
  status: string;
  statusPayload?: string;
  sessionExpiryDate?: number | null;
  detailedError?: { type: string; displayMessage: string; details?: { reason?: string } };
  [k: string]: unknown;
}

export const setCredentialsStatus = (api: ApiClient, id: string, status: string, payload?: string) =>
  api.data<CredentialsView>(EP.bench.setStatus, { path: { id }, json: { status, payload } }).catch(usageOn400);

export const expireConsent = (api: ApiClient, id: string) =>
  api
    .data<{ credentialsId: string; status: string; sessionExpiryDate: number }>(EP.bench.expireConsent, {
      path: { id },
      json: {},
    })
    .catch(usageOn400);

export interface AddTransactionsResult {
  ids: string[];
  accountId: string;
  balance: string;
}

export const addSandboxTransactions = (api: ApiClient, body: Record<string, unknown>) =>
  api.data<AddTransactionsResult>(EP.bench.addTransactions, { json: body }).catch(usageOn400);

export interface ClockView {
  now: string;
  epochMs: number;
  offsetMs: number;
}

export const getClock = (api: ApiClient) => api.data<ClockView>(EP.bench.clock);
export const setClock = (api: ApiClient, body: { advanceMs?: number; time?: string }) =>
  api.data<ClockView>(EP.bench.setClock, { json: body }).catch(usageOn400);

export interface ResetResult {
  reset: boolean;
  keepClients: boolean;
  clientId: string;
  clientSecret?: string;
  connectorToken?: string;
}

export const resetSandbox = (api: ApiClient, keepClients: boolean) =>
  api.data<ResetResult>(EP.bench.reset, { json: { keepClients }, idempotent: false, retries: 0 }).catch(usageOn400);

export const loadFixtures = (api: ApiClient, text: string) =>
  api.data<Record<string, unknown>>(EP.bench.load, { body: text, retries: 0 });

export const readLogs = (api: ApiClient, query: Record<string, string | undefined>) =>
  api.data<{ entries: LogEntry[]; last: number; dropped: number }>(EP.bench.logs, { query }).catch(usageOn400);
