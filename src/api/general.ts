// The service's own description: GET /version (connector-api.md 4), answered without a token.
import { EP } from '../contract/index.js';
import type { ApiClient } from './client.js';

export interface ServerVersion {
  /** The VersionResponse (version, commit, date...). */
  version: Record<string, unknown>;
  /** The server's Date header, when it sent one (its clock). */
  date?: string;
}

/** GET /version, once (no retries): for checks that ask whether the service is there at all. */
export async function serverVersion(api: ApiClient, o: { timeoutMs?: number } = {}): Promise<ServerVersion> {
  const res = await api.call<Record<string, unknown>>(EP.general.version, { retries: 0, timeoutMs: o.timeoutMs });
  const date = res.headers.date;
  return { version: res.data ?? {}, date: Array.isArray(date) ? date[0] : date };
}
