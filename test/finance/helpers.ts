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
