// Transfers (spec 2.7): POST /api/v1/transfer, the path of the service's Swagger (the spec writes
// "/transfer"). URIs are checked here before anything is sent; the amount goes out exactly as given.
import { EP } from '../contract/index.js';
import { decimalString, parseDecimal } from '../contract/decimal.js';
import type { ApiClient } from './client.js';
import { readCreated, readObject } from './shape.js';

export interface SignableOperation {
  id: string;
  status: string;
  statusMessage?: string;
  type: string;
  underlyingId: string;
  userId: string;
  credentialsId?: string | null;
  created: number;
  updated: number;
  [k: string]: unknown;
}

export const FINAL_OPERATION_STATUSES = ['EXECUTED', 'FAILED', 'CANCELLED'];

/** What is wrong with a transfer URI, or undefined when it is valid (spec 2.7's forms). */
export function transferUriProblem(uri: string, role: 'source' | 'destination'): string | undefined {
  const m = /^([a-z-]+):\/\/(.+)$/.exec(uri);
  if (!m) return `"${uri}" is not a URI of the form scheme://identifier`;
  const [, scheme, rest] = m as unknown as [string, string, string];
  const allowed = role === 'source' ? ['se', 'platform'] : ['se', 'se-pg', 'se-bg'];
  if (!allowed.includes(scheme))
    return `the ${role} may not be a ${scheme}:// URI; use ${allowed.map((s) => `${s}://`).join(' or ')}`;
  if (scheme === 'se' && !/^\d{8,20}$/.test(rest))
    return `se://${rest}: expected se://<clearing number><account number>, 8 to 20 digits, no spaces or dashes`;
  if (scheme === 'platform' && !/^[0-9a-f]{32}$/.test(rest))
    return `platform://${rest}: expected platform://<account id>, 32 hex characters`;
  if (scheme === 'se-pg' && !/^\d{1,7}-?\d$/.test(rest)) return `se-pg://${rest}: a PlusGiro number has 2 to 8 digits`;
  if (scheme === 'se-bg' && !/^\d{3,4}-?\d{4}$/.test(rest))
    return `se-bg://${rest}: a BankGiro number has 7 or 8 digits`;
  return undefined;
}

export interface TransferRequest {
  sourceUri: string;
  destinationUri: string;
  /** A positive decimal string, sent as a JSON number with exactly these digits. */
  amount: string;
  currency: string;
  destinationMessage?: string;
  sourceMessage?: string;
  dueDate?: number;
}

/** The request body with the amount written as a JSON number literal, never through a double. */
export function transferBody(t: TransferRequest): string {
  const p = parseDecimal(t.amount);
  const literal = decimalString(p.unscaledValue, p.scale);
  const rest: Record<string, unknown> = {
    sourceUri: t.sourceUri,
    destinationUri: t.destinationUri,
    currency: t.currency,
  };
  if (t.destinationMessage !== undefined) rest.destinationMessage = t.destinationMessage;
  if (t.sourceMessage !== undefined) rest.sourceMessage = t.sourceMessage;
  if (t.dueDate !== undefined) rest.dueDate = t.dueDate;
  return `{"amount":${literal},${JSON.stringify(rest).slice(1)}`;
}

export async function createTransfer(api: ApiClient, t: TransferRequest): Promise<SignableOperation> {
  return readCreated<SignableOperation>(api, EP.transfers.create, 'id', { body: transferBody(t) });
}

export async function transferStatus(api: ApiClient, transferId: string): Promise<SignableOperation> {
  return readObject<SignableOperation>(api, EP.transfers.status, { path: { id: transferId } });
}
