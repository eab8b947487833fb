// POST /api/v1/user/create and /api/v1/user/delete (spec 4.6); GET /version (connector 4).
import { EP } from '../../contract/index.js';
import { isLocale, isMarket, MARKET_DEFAULT_LOCALE } from '../../contract/markets.js';
import { asObject, badRequest, conflict, JsonText, optString } from '../http.js';
import type { SandboxContext } from '../context.js';

export const SANDBOX_VERSION = { version: '1.0.0-sandbox', commit: 'sandbox', date: Date.UTC(2026, 0, 1) };
/** Its JSON, written once: the answer most polled (a health check) serialises nothing. */
const VERSION_JSON = new JsonText(JSON.stringify(SANDBOX_VERSION));

export function registerUsers(ctx: SandboxContext): void {
  const { handle, store } = ctx;
  handle(EP.users.create, async (req, res) => {
    const body = asObject(await req.json());
    const market = optString(body, 'market');
    if (!market) throw badRequest('market is required', { field: 'market' });
    if (!isMarket(market)) throw badRequest(`unknown market "${market.slice(0, 20)}"`, { field: 'market' });
    const locale = optString(body, 'locale') ?? MARKET_DEFAULT_LOCALE[market]!;
    if (!isLocale(locale)) throw badRequest(`unsupported locale "${locale.slice(0, 20)}"`, { field: 'locale' });
    const externalUserId = optString(body, 'external_user_id') ?? optString(body, 'externalUserId');
    if (externalUserId !== undefined && store.userByExternalId(externalUserId)) {
      throw conflict(`a user with external id "${externalUserId.slice(0, 80)}" already exists`);
    }
    const id = store.ids.next();
    store.addUser({ id, externalUserId, market, locale, created: store.clock.now(), clientId: req.auth?.clientId });
    res.json(200, externalUserId !== undefined ? { user_id: id, external_user_id: externalUserId } : { user_id: id });
  });

  handle(EP.users.delete, async (req, res) => {
    const user = req.user();
    store.deleteUser(user.id);
    res.empty(204);
  });

  handle(EP.general.version, (_req, res) => res.json(200, VERSION_JSON));
}
