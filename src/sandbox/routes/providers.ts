// GET /api/v1/providers (spec 2.2): market filter, includeTestProviders, excludeNonTestProviders,
// capability, name; GET /api/v1/providers/{name} for one provider (a market code there lists that
// market, as the service's Swagger shows GET /api/v1/providers/{market}); GET /api/v1/providers/markets
// (the vendor reference's "List markets"): the markets that have providers.
import { EP } from '../../contract/index.js';
import { isMarket } from '../../contract/markets.js';
import { PROVIDER_CAPABILITIES } from '../../contract/vocabulary.js';
import type { SandboxContext } from '../context.js';
import type { Handler } from '../router.js';
import { badRequest, notFound } from '../http.js';
import { filterProviders, PROVIDERS, providerByName, wireProvider } from '../providers/catalogue.js';

const CAPABILITIES = ['UNKNOWN', ...PROVIDER_CAPABILITIES];

function bool(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  if (v === null || v === '') return false;
  if (v !== 'true' && v !== 'false') throw badRequest(`${name} must be true or false`, { field: name });
  return v === 'true';
}

function listing(q: URLSearchParams, market: string | undefined) {
  if (market !== undefined && !isMarket(market))
    throw badRequest(`unknown market "${market.slice(0, 20)}"`, { field: 'market' });
  const capability = q.get('capability') ?? undefined;
  if (capability !== undefined && !CAPABILITIES.includes(capability))
    throw badRequest(`unknown capability "${capability.slice(0, 40)}"; one of ${CAPABILITIES.join(', ')}`, {
      field: 'capability',
    });
  const includeTest = bool(q, 'includeTestProviders');
  const onlyTest = bool(q, 'excludeNonTestProviders');
  const name = q.get('name') ?? undefined;
  const providers = filterProviders({ market, includeTest, onlyTest, capability, name }).map(wireProvider);
  return { providers };
}

/** The markets that have providers (test providers included), sorted: ProviderMarketListResponse. */
const markets: Handler = (_req, res) => {
  res.json(200, { markets: [...new Set(PROVIDERS.map((p) => p.market))].sort() });
};

export function registerProviders(ctx: SandboxContext): void {
  const { handle } = ctx;
  handle(EP.providers.markets, markets);
  handle(EP.providers.list, (req, res) => {
    const m = req.query.get('market');
    res.json(200, listing(req.query, m ? m.toUpperCase() : undefined));
  });
  handle(EP.providers.byMarket, (req, res) => {
    const name = req.params.market!;
    if (/^[A-Za-z]{2}$/.test(name)) {
      res.json(200, listing(req.query, name.toUpperCase()));
      return;
    }
    const p = providerByName(name);
    if (!p) throw notFound(`no provider named "${name.slice(0, 100)}"`);
    res.json(200, wireProvider(p));
  });
}
