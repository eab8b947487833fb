// Providers (spec 2.2): the list with its filters, and one provider by name.
import { EP } from '../contract/index.js';
import { MARKETS } from '../contract/markets.js';
import type { ProviderField as WireProviderField } from '../contract/wire.js';
import { isMarket } from '../contract/markets.js';
import { ApiError, NotFoundError } from '../errors.js';
import type { ApiClient } from './client.js';
import type { HttpResponse } from '../http/client.js';
import type { Endpoint } from '../contract/index.js';
import { isObject, listIn, readList } from './shape.js';

/** A provider's field as the service sends it (properties beyond the wire type kept). */
export type ProviderField = WireProviderField & { [k: string]: unknown };

export interface Provider {
  name: string;
  displayName?: string;
  type?: string;
  market?: string;
  credentialsType?: string;
  authenticationFlow?: string;
  capabilities?: string[];
  fields?: ProviderField[];
  popular?: boolean;
  [k: string]: unknown;
}

export interface ProviderQuery {
  market?: string;
  includeTestProviders?: boolean;
  excludeNonTestProviders?: boolean;
  capability?: string;
  name?: string;
}

/**
 * The providers a caller may use. With a user (--user, --external-user, a ready --token or --basic)
 * the user's list (GET /api/v1/providers, user token, credentials:read, as the vendor reference
 * requires); without one, each market's list (GET /api/v1/providers/{market}, which the reference
 * lets an app call without a token, naming itself with X-Tink-OAuth-Client-ID): the given market,
 * or every market in turn.
 */
export async function listProviders(
  api: ApiClient,
  q: ProviderQuery = {},
  o: { clientId?: string } = {},
): Promise<Provider[]> {
  const query: Record<string, string> = {};
  if (q.includeTestProviders) query.includeTestProviders = 'true';
  if (q.excludeNonTestProviders) query.excludeNonTestProviders = 'true';
  if (q.capability) query.capability = q.capability;
  if (q.name) query.name = q.name;
  // the reference's user list takes no market and a market's list no name: each answer is held to
  // the filters asked for, so a service that ignores one never passes for having applied it
  const wanted = (p: Provider): boolean =>
    (q.name === undefined || p.name === q.name) &&
    (q.market === undefined || typeof p.market !== 'string' || p.market.toUpperCase() === q.market.toUpperCase());
  const c = api.caller;
  if (c.token || c.basic || c.user?.userId || c.user?.externalUserId) {
    if (q.market) query.market = q.market;
    return providersOf(EP.providers.list, await api.call(EP.providers.list, { query })).filter(wanted);
  }
  const headers: Record<string, string> = o.clientId ? { 'x-tink-oauth-client-id': o.clientId } : {};
  const out: Provider[] = [];
  for (const market of q.market ? [q.market] : MARKETS) {
    const res = await api.call(EP.providers.byMarket, { path: { market }, query, headers });
    out.push(...providersOf(EP.providers.byMarket, res).filter(wanted));
  }
  return out;
}

/** ProviderListResponse {providers} (required by the Swagger), or the list itself; anything else is exit 7. */
const providersOf = (ep: Endpoint, res: HttpResponse<unknown>): Provider[] =>
  listIn<Provider>(ep, res, 'providers', { bare: true });

/** The markets that have providers: ProviderMarketListResponse {markets: [string]}, checked. */
export async function listMarkets(api: ApiClient): Promise<string[]> {
  return readList<string>(api, EP.providers.markets, 'markets', {}, { items: 'string' });
}

/**
 * One provider by name, the ways the vendor reference allows: from a market's list
 * (`GET /api/v1/providers/{market}`, the given market or the one the name starts with, `se-...`), or
 * by the `name` query parameter of `GET /api/v1/providers` ("only one or no providers will be
 * returned"). A service that answers the provider itself (the spec's reading) works too.
 * NotFoundError (exit 4) when there is none.
 */
export async function findProvider(api: ApiClient, name: string, o: { market?: string } = {}): Promise<Provider> {
  const exact = (res: HttpResponse<unknown>, ep: Endpoint): Provider | undefined =>
    asList(ep, res).find((p) => p.name === name);
  const query = { includeTestProviders: 'true', name };
  const prefix = /^([a-z]{2})-/.exec(name)?.[1]?.toUpperCase();
  const market = o.market ?? (prefix && isMarket(prefix) ? prefix : undefined);
  const c = api.caller;
  const hasUser = Boolean(c.token || c.basic || c.user?.userId || c.user?.externalUserId);
  if (market && !(hasUser && !o.market)) {
    const found = await api.call(EP.providers.byMarket, { path: { market }, query }).then(
      (res) => exact(res, EP.providers.byMarket),
      (err: unknown) => {
        // a market the name only seemed to start with: the other ways below
        if (!o.market && providersAnswered(err)) return undefined;
        throw err;
      },
    );
    if (found || o.market) return found ?? notFound(name, o.market);
  }
  // the full list takes a user token where the contract says so (the reference's): none, no lookup
  const listed =
    !hasUser && EP.providers.list.token === 'user'
      ? undefined
      : await api.call(EP.providers.list, { query }).then(
          (res) => exact(res, EP.providers.list),
          (err: unknown) => {
            // a service without the list's name query (the spec's reading) answers the provider itself below
            if (providersAnswered(err, 404)) return undefined;
            throw err;
          },
        );
  return listed ?? (await bySpecPath(api, name)) ?? notFound(name, o.market);
}

/** The spec's reading, GET /api/v1/providers/{name} answering the provider itself; undefined on a 4xx. */
async function bySpecPath(api: ApiClient, name: string): Promise<Provider | undefined> {
  let res: HttpResponse<unknown>;
  try {
    res = await api.call(EP.providers.byMarket, { path: { market: name } });
  } catch (err) {
    if (providersAnswered(err)) return undefined;
    throw err;
  }
  return asList(EP.providers.byMarket, res).find((p) => p.name === name);
}

/**
 * The providers of an answer: a provider list (as providersOf), or one provider itself (an object
 * with a string name, the spec's reading of GET /api/v1/providers/{name}); anything else is exit 7.
 */
function asList(ep: Endpoint, res: HttpResponse<unknown>): Provider[] {
  const data = res.data;
  if (isObject(data) && data.providers === undefined && typeof data.name === 'string') return [data as Provider];
  return providersOf(ep, res);
}

/**
 * Whether err is the providers endpoint's own 4xx (or this status), not a failure on the way to it:
 * a token grant's 404 for an unknown acting user is that user's error, not "provider not found".
 */
function providersAnswered(err: unknown, status?: number): boolean {
  if (!(err instanceof ApiError) || err.status < 400 || err.status >= 500) return false;
  if (status !== undefined && err.status !== status) return false;
  let path: string;
  try {
    path = new URL(err.url).pathname;
  } catch {
    return false;
  }
  return err.method === 'GET' && /\/api\/v1\/providers(\/|$)/.test(path);
}

function notFound(name: string, market?: string): never {
  throw new NotFoundError(`provider ${name} not found${market ? ` in market ${market}` : ''}`, {
    hint: `list them with \`bankctl providers list${market ? ` --market ${market}` : ''} --include-test\``,
  });
}
