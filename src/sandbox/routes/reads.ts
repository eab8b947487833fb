// The read areas of issue 4, registered together from src/sandbox/areas.ts: accounts, balances,
// balance refresh, /data/v2 transactions, identities, investments, loans, categories, and the
// update-consent page of the link service.
import type { SandboxContext } from '../context.js';
import type { MemoryStore, UserRecord } from '../store.js';
import { registerAccounts } from './accounts.js';
import { registerBalanceRefresh } from './balance-refresh.js';
import { registerTransactionsV2 } from './transactions-v2.js';
import { registerIdentities } from './identities.js';
import { registerInvestments } from './investments.js';
import { registerLoans } from './loans.js';
import { registerCategories } from './categories.js';
import { registerUpdateConsent, type ConsentLookup } from './update-consent.js';
import { credentialsOf } from './credentials-view.js';

/** Credentials a user holds: those of the credentials area, else those their accounts or connector name. */
export const consentLookup: ConsentLookup = {
  owns(store: MemoryStore, user: UserRecord, credentialsId: string): boolean {
    const c = credentialsOf(store, credentialsId);
    if (c) return c.userId === user.id;
    if (user.connector?.credentialsId === credentialsId) return true;
    for (const a of store.accounts.values())
      if (a.userId === user.id && a.credentialsIds.includes(credentialsId)) return true;
    return false;
  },
  describe(store: MemoryStore, credentialsId: string) {
    const c = credentialsOf(store, credentialsId);
    return c ? { providerName: c.providerName, sessionExpiryDate: c.sessionExpiryDate ?? undefined } : undefined;
  },
};

/** The page's effect on the credentials record: a new session; an expired one is UPDATED again. */
function extender(ctx: SandboxContext) {
  return (store: MemoryStore, credentialsId: string, expiresAt: number) => {
    const c = credentialsOf(store, credentialsId);
    if (!c) return;
    c.sessionExpiryDate = expiresAt;
    if (c.status === 'SESSION_EXPIRED') {
      const now = store.clock.now();
      c.status = 'UPDATED';
      c.statusPayload = 'The consent was renewed.';
      c.statusUpdated = Math.max(now, c.statusUpdated + 1);
      c.needsAuth = false;
      delete c.detailedError;
      const content = {
        id: c.id,
        providerName: c.providerName,
        type: c.type,
        status: c.status,
        statusPayload: c.statusPayload,
        statusUpdated: c.statusUpdated,
        updated: c.updated,
        sessionExpiryDate: c.sessionExpiryDate,
        userId: c.userId,
      };
      ctx.events.emit({ event: 'credentials:update', userId: c.userId, content, orderKey: c.id }, now);
    }
  };
}

export function registerReads(ctx: SandboxContext): void {
  registerAccounts(ctx);
  registerBalanceRefresh(ctx);
  registerTransactionsV2(ctx);
  registerIdentities(ctx, (store, id) => credentialsOf(store, id)?.providerName);
  registerInvestments(ctx);
  registerLoans(ctx);
  registerCategories(ctx);
  registerUpdateConsent(ctx, { ...consentLookup, extend: extender(ctx) });
}
