// Records put straight into a sandbox's store, for tests that need exact, hand-made data.
import type { AccountRecord, MemoryStore, TransactionRecord } from '../../src/sandbox/store.js';

export function addAccount(
  store: MemoryStore,
  userId: string,
  over: Partial<AccountRecord> = {},
  credentialsId = 'c'.repeat(32),
): AccountRecord {
  const now = store.clock.now();
  const a: AccountRecord = {
    id: store.ids.next(),
    userId,
    credentialsIds: [credentialsId],
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
    created: now,
    updated: now,
    ...over,
  };
  store.accounts.set(a.id, a);
  return a;
}

export function addTx(
  store: MemoryStore,
  account: AccountRecord,
  amount: string,
  bookedDate: string,
  over: Partial<TransactionRecord> = {},
): TransactionRecord {
  const now = store.clock.now();
  const t: TransactionRecord = {
    id: store.ids.next(),
    userId: account.userId,
    accountId: account.id,
    amount,
    currencyCode: account.currencyCode,
    bookedDate,
    valueDate: bookedDate,
    description: 'Purchase',
    originalDescription: 'PURCHASE',
    categoryId: '',
    status: 'BOOKED',
    type: 'DEFAULT',
    seq: store.nextSeq(),
    created: now,
    updated: now,
    ...over,
  };
  store.transactions.set(t.id, t);
  return t;
}
