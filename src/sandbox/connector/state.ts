// The connector's indexes beside the shared maps: per user, accounts and transactions by their
// externalId (the ingest path is O(1) per transaction) and the externalIds deleted (410 on
// re-ingest). The records themselves live in store.accounts and store.transactions.
import type { AccountRecord, MemoryStore, TransactionRecord, UserRecord } from '../store.js';

export interface ConnectorUserState {
  accounts: Map<string, AccountRecord>;
  transactions: Map<string, TransactionRecord>;
  deleted: Set<string>;
}

export class ConnectorState {
  readonly users = new Map<string, ConnectorUserState>();

  of(userId: string): ConnectorUserState {
    let s = this.users.get(userId);
    if (!s) {
      s = { accounts: new Map(), transactions: new Map(), deleted: new Set() };
      this.users.set(userId, s);
    }
    return s;
  }
}

export function connectorState(store: MemoryStore): ConnectorState {
  return store.area('connector', () => new ConnectorState());
}

/** Market -> currency of connector accounts (the spec gives none; the market's own currency). */
const EURO = new Set(['AT', 'BE', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK']);
const OTHER: Record<string, string> = {
  AU: 'AUD', BG: 'BGN', BR: 'BRL', CA: 'CAD', CZ: 'CZK', DK: 'DKK', GB: 'GBP', UK: 'GBP', HU: 'HUF', IN: 'INR', MX: 'MXN',
  NO: 'NOK', NZ: 'NZD', PL: 'PLN', RO: 'RON', SE: 'SEK', SG: 'SGD', US: 'USD',
};
export function currencyOf(market: string): string {
  return EURO.has(market) ? 'EUR' : (OTHER[market] ?? 'EUR');
}

/** Category of a connector transaction before any categorisation: uncategorised expense or income. */
export const UNCATEGORIZED_EXPENSE = '0e1bade6a7e3459eb794e3b5a4f3c2e1';
export const UNCATEGORIZED_INCOME = '0e1bade6a7e3459eb794e3b5a4f3c2e2';

const dayCache = new Map<number, string>();
/** YYYY-MM-DD (UTC) of an epoch-ms date; the strings are shared per day to keep records small. */
export function isoDay(ms: number): string {
  const day = Math.floor(ms / 86_400_000);
  let s = dayCache.get(day);
  if (s === undefined) {
    s = new Date(day * 86_400_000).toISOString().slice(0, 10);
    if (dayCache.size < 100_000) dayCache.set(day, s);
  }
  return s;
}

/** A transaction as /data/v2/transactions shows it, with the connector payload as partnerPayload. */
export function apiTransaction(t: TransactionRecord): Record<string, unknown> {
  const neg = t.amount.startsWith('-');
  const digits = t.amount.replace(/^[-+]/, '');
  const dot = digits.indexOf('.');
  const scale = dot < 0 ? 0 : digits.length - dot - 1;
  const unscaled = (neg ? '-' : '') + (digits.replace('.', '').replace(/^0+(?=\d)/, '') || '0');
  const out: Record<string, unknown> = {
    id: t.id,
    accountId: t.accountId,
    amount: { currencyCode: t.currencyCode, value: { scale: String(scale), unscaledValue: unscaled } },
    categories: { pfm: { id: t.categoryId, name: '' } },
    dates: { booked: t.bookedDate, value: t.valueDate },
    descriptions: { display: t.description, original: t.originalDescription },
    identifiers: { providerTransactionId: t.externalId ?? t.id },
    merchantInformation: {},
    providerMutability: t.status === 'PENDING' ? 'MUTABLE' : 'MUTABILITY_UNDEFINED',
    status: t.status,
    types: { type: t.type },
    partnerPayload: t.payload ?? {},
  };
  if (t.notes !== undefined) out.notes = t.notes;
  return out;
}

/** The one set of credentials connector data hangs off; created on first use for users made by /api/v1/user/create. */
export function ensureConnector(store: MemoryStore, user: UserRecord): NonNullable<UserRecord['connector']> {
  // the token is a random secret nobody knows: such a user reads its data with a generated token
  if (!user.connector) user.connector = { token: store.ids.secret(24), blocked: false, credentialsId: store.ids.next() };
  return user.connector;
}
