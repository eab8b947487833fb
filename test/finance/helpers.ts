// Accounts and transactions written straight into the sandbox store, for tests that need exact,
// known data (the demo data generator gives realistic months; these give arithmetic to check).
import type { AccountRecord, MemoryStore } from '../../src/sandbox/store.js';
import { addAccount as fixtureAccount, addTx as fixtureTx } from '../helpers/store-fixtures.js';

/** A hand-made account (test/helpers/store-fixtures.ts) for this area's tests. */
export function addAccount(store: MemoryStore, userId: string, over: Partial<AccountRecord> = {}): AccountRecord {
  return fixtureAccount(store, userId, { iban: 'SE4550000000058398257466', ...over }, 'c'.repeat(32));
}

export const addTx = fixtureTx;

import type { Sandbox } from '../../src/sandbox/index.js';
import { clientToken, raw } from '../helpers/sandbox.js';

/** A user of this market and locale with a user token holding these scopes. */
export async function userWithLocale(
  sb: Sandbox,
  scopes: string[],
  market: string,
  locale: string,
): Promise<{ userId: string; token: string; h: Record<string, string> }> {
  const ct = await clientToken(sb, ['user:create', 'authorization:grant']);
  const created = await raw(sb.baseUrl, 'POST', '/api/v1/user/create', {
    headers: { authorization: `Bearer ${ct}` },
    json: { market, locale },
  });
  if (created.status !== 200) throw new Error(`user/create: ${created.status} ${created.text}`);
  const userId = created.json().user_id as string;
  const g = await raw(sb.baseUrl, 'POST', '/api/v1/oauth/authorization-grant', {
    headers: { authorization: `Bearer ${ct}` },
    form: { user_id: userId, scope: scopes.join(',') },
  });
  const tok = await raw(sb.baseUrl, 'POST', '/api/v1/oauth/token', {
    form: {
      client_id: sb.clientId,
      client_secret: sb.clientSecret,
      grant_type: 'authorization_code',
      code: g.json().code,
    },
  });
  const token = tok.json().access_token as string;
  return { userId, token, h: { authorization: `Bearer ${token}` } };
}
