// Every area of the emulator, registered in order. One module per area, each a register(ctx).
import type { SandboxContext } from './context.js';
import { registerOAuth } from './routes/oauth.js';
import { registerUsers } from './routes/users.js';
import { registerProviders } from './routes/providers.js';
import { registerCredentials } from './routes/credentials.js';
import { registerFinanceAreas } from './finance/areas.js';
import { registerWebhooks } from './routes/webhooks.js';
import { registerConnector } from './routes/connector.js';
import { registerReads } from './routes/reads.js';
import { registerLinkService } from './link/index.js';

export const AREAS: Array<(ctx: SandboxContext) => void> = [
  (ctx) => registerOAuth(ctx.router, ctx.store),
  (ctx) => registerUsers(ctx.router, ctx.store),
  registerProviders,
  registerCredentials,
  registerFinanceAreas,
  registerWebhooks,
  registerConnector,
  registerReads,
  registerLinkService,
];
