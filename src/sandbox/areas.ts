// Every area of the emulator, in order: one list, one signature. Each area serves its endpoints of
// the contract through ctx.handle; the server refuses to start when an entry is left without one.
import type { SandboxContext } from './context.js';
import type { Router } from './router.js';
import { registerOAuth } from './routes/oauth.js';
import { registerUsers } from './routes/users.js';
import { registerProviders } from './routes/providers.js';
import { registerCredentials } from './routes/credentials.js';
import { registerCalendar } from './routes/calendar.js';
import { registerReports } from './routes/reports.js';
import { registerTransfers } from './routes/transfers.js';
import { registerStatistics } from './routes/statistics.js';
import { registerBudgets } from './routes/budgets.js';
import { registerInsights } from './routes/insights.js';
import { registerSearch } from './routes/search.js';
import { registerWebhooks } from './routes/webhooks.js';
import { registerConnector } from './routes/connector.js';
import { registerAccounts } from './routes/accounts.js';
import { registerBalanceRefresh } from './routes/balance-refresh.js';
import { registerTransactionsV2 } from './routes/transactions-v2.js';
import { registerIdentities } from './routes/identities.js';
import { registerInvestments } from './routes/investments.js';
import { registerLoans } from './routes/loans.js';
import { registerCategories } from './routes/categories.js';
import { registerUpdateConsent } from './routes/update-consent.js';
import { registerLinkService } from './link/index.js';
import { registerBench } from './bench/index.js';
import { registerDataV2 } from './routes/data-v2.js';
import { registerConsentsV2 } from './routes/consents-v2.js';
import { registerUserProfile } from './routes/user-profile.js';

export type Area = (ctx: SandboxContext) => void;

export const AREAS: Area[] = [
  registerOAuth,
  registerUsers,
  registerProviders,
  registerCredentials,
  registerCalendar,
  registerReports,
  registerTransfers,
  registerStatistics,
  registerBudgets,
  registerInsights,
  registerSearch,
  registerWebhooks,
  registerConnector,
  registerAccounts,
  registerBalanceRefresh,
  registerTransactionsV2,
  registerIdentities,
  registerInvestments,
  registerLoans,
  registerCategories,
  registerUpdateConsent,
  registerLinkService,
  registerBench,
  registerDataV2,
  registerConsentsV2,
  registerUserProfile,
];

/** Registers every area on the router, then refuses a contract entry left without a handler. */
export function registerAreas(ctx: SandboxContext, router: Router): void {
  for (const register of AREAS) register(ctx);
  router.verify();
}
