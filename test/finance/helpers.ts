// Accounts and transactions written straight into the sandbox store, for tests that need exact,
// known data (the demo data generator gives realistic months; these give arithmetic to check).
import type { AccountRecord, MemoryStore, TransactionRecord } from '../../src/sandbox/store.js';

export function addAccount(store: MemoryStore, userId: string, over: Partial<AccountRecord> = {}): AccountRecord {
  const id = store.ids.next();
  const now = store.clock.now();
  const a: AccountRecord = {
    id,
    userId,
    credentialsIds: ['c'.repeat(32)],
    name: 'Everyday account',
    accountNumber: '8327-9234947790',
    type: 'CHECKING',
    balance: '10000.00',
    currencyCode: 'SEK',
    closed: false,
    accountExclusion: 'NONE',
    excluded: false,
    favored: false,
    flags: [],
    holderName: 'Åsa Öberg',
    iban: 'SE4550000000058398257466',
    created: now,
    updated: now,
    ...over,
  };
  store.accounts.set(a.id, a);
  return a;
}

export function addTx(store: MemoryStore, account: AccountRecord, amount: string, bookedDate: string, over: Partial<TransactionRecord> = {}): TransactionRecord {
  const id = store.ids.next();
  const now = store.clock.now();
  const t: TransactionRecord = {
    id,
    userId: account.userId,
    accountId: account.id,
    amount,
    currencyCode: account.currencyCode,
    bookedDate,
    valueDate: bookedDate,
    description: 'Purchase',
    originalDescription: 'Purchase',
    categoryId: '',
    status: 'BOOKED',
    type: 'DEFAULT',
    seq: store.nextSeq(),
    created: now,
    updated: now,
    ...over,
  };
  store.transactions.set(id, t);
  return t;
}

import type { Sandbox } from '../../src/sandbox/index.js';
import { clientToken, raw } from '../helpers/sandbox.js';

/** A user of this market and locale with a user token holding these scopes. */
export async function userWithLocale(sb: Sandbox, scopes: string[], market: string, locale: string): Promise<{ userId: string; token: string; h: Record<string, string> }> {
  const ct = await clientToken(sb, ['user:create', 'authorization:grant']);
  const created = await raw(sb.baseUrl, 'POST', '/api/v1/user/create', { headers: { authorization: `Bearer ${ct}` }, json: { market, locale } });
  if (created.status !== 200) throw new Error(`user/create: ${created.status} ${created.text}`);
  const userId = created.json().user_id as string;
  const g = await raw(sb.baseUrl, 'POST', '/api/v1/oauth/authorization-grant', { headers: { authorization: `Bearer ${ct}` }, form: { user_id: userId, scope: scopes.join(',') } });
  const tok = await raw(sb.baseUrl, 'POST', '/api/v1/oauth/token', { form: { client_id: sb.clientId, client_secret: sb.clientSecret, grant_type: 'authorization_code', code: g.json().code } });
  const token = tok.json().access_token as string;
  return { userId, token, h: { authorization: `Bearer ${token}` } };
}
