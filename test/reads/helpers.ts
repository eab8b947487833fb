// Fixtures of the read tests: a user with a token holding every read scope, demo data from the
// credentials area's generator, and exact records written straight into the store.
import type { Sandbox } from '../../src/sandbox/index.js';
import type { AccountRecord, MemoryStore } from '../../src/sandbox/store.js';
import { generateDemoData } from '../../src/sandbox/demo-data.js';
import { clientToken, raw, userWithToken } from '../helpers/sandbox.js';
import { addAccount as fixtureAccount, addTx as fixtureTx } from '../helpers/store-fixtures.js';

export const READ_SCOPES = [
  'accounts:read',
  'accounts:write',
  'balances:read',
  'balance-refresh',
  'balance-refresh:readonly',
  'transactions:read',
  'identity:read',
  'investments:read',
  'user:read',
  'provider-consents:read',
  'credentials:read',
  'credentials:write',
];

export interface Reader {
  userId: string;
  token: string;
  get(path: string): ReturnType<typeof raw>;
  put(path: string, json: unknown): ReturnType<typeof raw>;
  post(path: string, json: unknown): ReturnType<typeof raw>;
}

export async function reader(sb: Sandbox, market = 'SE', scopes = READ_SCOPES): Promise<Reader> {
  const { userId, token } = await userWithToken(sb, scopes, market);
  const headers = { authorization: `Bearer ${token}` };
  return {
    userId,
    token,
    get: (path) => raw(sb.baseUrl, 'GET', path, { headers }),
    put: (path, json) => raw(sb.baseUrl, 'PUT', path, { headers, json }),
    post: (path, json) => raw(sb.baseUrl, 'POST', path, { headers, json }),
  };
}

export function demo(sb: Sandbox, userId: string, seed = 'reads', months = 6): AccountRecord[] {
  return generateDemoData(sb.store, {
    userId,
    credentialsIds: ['c0ffee'.padEnd(32, '0')],
    providerName: 'se-test-password',
    currencyCode: 'SEK',
    seed,
    now: sb.clock.now(),
    months,
  });
}

/** A hand-made account (test/helpers/store-fixtures.ts) for this area's tests. */
export function addAccount(store: MemoryStore, userId: string, over: Partial<AccountRecord> = {}): AccountRecord {
  return fixtureAccount(store, userId, { ...over }, 'cafe'.padEnd(32, '1'));
}

export const addTx = fixtureTx;

/** Every transaction of a walk over all pages, with the tokens seen. */
export async function walk(r: Reader, query = ''): Promise<{ ids: string[]; pages: number; items: any[] }> {
  const items: any[] = [];
  let token = '';
  let pages = 0;
  do {
    const sep = query ? '&' : '';
    const res = await r.get(
      `/data/v2/transactions?${query}${token ? `${sep}pageToken=${encodeURIComponent(token)}` : ''}`,
    );
    if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
    const body = res.json();
    items.push(...body.transactions);
    token = body.nextPageToken;
    pages++;
  } while (token);
  return { ids: items.map((t) => t.id), pages, items };
}

/** A fresh user token for an existing user (grant + exchange). */
export async function userToken(sb: Sandbox, userId: string, scopes = READ_SCOPES): Promise<string> {
  const ct = await clientToken(sb, ['authorization:grant']);
  const g = await raw(sb.baseUrl, 'POST', '/api/v1/oauth/authorization-grant', {
    headers: { authorization: `Bearer ${ct}` },
    form: { user_id: userId, scope: scopes.join(',') },
  });
  const x = await raw(sb.baseUrl, 'POST', '/api/v1/oauth/token', {
    form: {
      client_id: sb.clientId,
      client_secret: sb.clientSecret,
      grant_type: 'authorization_code',
      code: g.json().code,
    },
  });
  return x.json().access_token;
}
