// Validation of the hosted flow's query parameters (spec 5, the table of rule 5). Two kinds of
// failure: before client_id and redirect_uri are known to be good, nothing may be redirected to, so
// the answer is an error screen; after that, a misconfigured link goes back to redirect_uri with
// error=BAD_REQUEST (or, in iframe mode, as a postMessage).
import { isMarket } from '../../contract/markets.js';
import type { ClientRecord, Store } from '../store.js';
import { parseScopes, validateScopes } from '../routes/oauth.js';
import { LINK_LOCALES, type LinkLocale } from './i18n.js';

export const MAX_STATE_LENGTH = 2048;
export const MAX_URI_LENGTH = 2048;
export const MAX_USERNAME_LENGTH = 256;
export const DEFAULT_MARKET = 'SE';
const PROVIDER_NAME = /^[a-z0-9][a-z0-9._-]{0,127}$/i;

export interface LinkParams {
  client: ClientRecord;
  redirectUri: string;
  scopes: string[];
  market: string;
  /** The market came from the link (the picker then shows only that market). */
  marketFixed: boolean;
  locale: LinkLocale;
  state: string | null;
  iframe: boolean;
  username: string | null;
  provider: string | null;
  /** Sandbox extension: account opt-in (spec 2.1, "a feature enabled on request") for this link. */
  optIn: boolean;
}

export type Validation =
  | { kind: 'ok'; params: LinkParams }
  /** client_id or redirect_uri is bad: an error screen, never a redirect. */
  | { kind: 'screen'; message: string; locale: LinkLocale }
  /** The link is misconfigured in another way: BAD_REQUEST back to the (validated) redirect_uri. */
  | {
      kind: 'bad-request';
      message: string;
      redirectUri: string;
      state: string | null;
      iframe: boolean;
      locale: LinkLocale;
    };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for http(s) URLs on a loopback host. */
export function isLoopback(u: URL): boolean {
  return LOOPBACK_HOSTS.has(u.hostname);
}

/**
 * Exact match against the client's registered URIs, plus RFC 8252 section 7.3: a loopback URI
 * matches a registered loopback URI with the same scheme, host, path and query on any port (native
 * apps such as `bankctl auth link --port 0` listen on whatever port is free).
 */
export function redirectUriAllowed(candidate: URL, registered: readonly string[]): boolean {
  for (const r of registered) {
    if (r === candidate.href || r === candidate.toString()) return true;
    let reg: URL;
    try {
      reg = new URL(r);
    } catch {
      continue;
    }
    if (reg.href === candidate.href) return true;
    if (
      isLoopback(reg) &&
      isLoopback(candidate) &&
      reg.protocol === 'http:' &&
      candidate.protocol === 'http:' &&
      reg.hostname === candidate.hostname &&
      reg.pathname === candidate.pathname &&
      reg.search === candidate.search
    ) {
      return true;
    }
  }
  return false;
}

/** The single value of a parameter; undefined when absent, an error when repeated. */
function single(q: URLSearchParams, name: string): { value?: string; error?: string } {
  const all = q.getAll(name);
  if (all.length === 0) return {};
  if (all.length > 1) return { error: `${name} is given ${all.length} times` };
  return { value: all[0] };
}

const hasControl = (s: string) => /[\u0000-\u001f\u007f]/.test(s);
const clip = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n)}…` : s);

export function validateAuthorize(q: URLSearchParams, store: Store): Validation {
  // the locale first, so the error screens speak it when it is good
  const loc = single(q, 'locale');
  const locale: LinkLocale =
    loc.value && (LINK_LOCALES as readonly string[]).includes(loc.value) ? (loc.value as LinkLocale) : 'en_US';
  const screen = (message: string): Validation => ({ kind: 'screen', message, locale });

  const cid = single(q, 'client_id');
  if (cid.error) return screen(cid.error);
  if (!cid.value) return screen('client_id is missing.');
  const client = cid.value.length <= 200 ? store.clients.get(cid.value) : undefined;
  if (!client) return screen(`client_id "${clip(cid.value)}" is not a known client.`);

  const ru = single(q, 'redirect_uri');
  if (ru.error) return screen(ru.error);
  if (!ru.value) return screen('redirect_uri is missing.');
  if (ru.value.length > MAX_URI_LENGTH) return screen(`redirect_uri is longer than ${MAX_URI_LENGTH} characters.`);
  let uri: URL;
  try {
    uri = new URL(ru.value);
  } catch {
    return screen(`redirect_uri "${clip(ru.value)}" is not an absolute URL.`);
  }
  if (uri.protocol !== 'https:' && uri.protocol !== 'http:')
    return screen(`redirect_uri must be an http(s) URL, not ${clip(uri.protocol, 20)}`);
  if (uri.protocol === 'http:' && !isLoopback(uri))
    return screen('redirect_uri must use https unless it points at localhost.');
  if (uri.username || uri.password) return screen('redirect_uri must not carry user information.');
  if (uri.hash) return screen('redirect_uri must not have a fragment.');
  if (!redirectUriAllowed(uri, client.redirectUris))
    return screen(`redirect_uri "${clip(ru.value)}" is not registered for this client.`);
  const redirectUri = ru.value;

  // from here on the redirect URI is trusted: problems go back to it as BAD_REQUEST
  const st = single(q, 'state');
  const state = st.value !== undefined && st.value.length <= MAX_STATE_LENGTH ? st.value : null;
  const ifr = single(q, 'iframe');
  const iframe = ifr.value === 'true';
  const bad = (message: string): Validation => ({ kind: 'bad-request', message, redirectUri, state, iframe, locale });
  if (st.error) return bad(st.error);
  if (st.value !== undefined && st.value.length > MAX_STATE_LENGTH)
    return bad(`state is longer than ${MAX_STATE_LENGTH} characters.`);
  if (ifr.error) return bad(ifr.error);
  if (ifr.value !== undefined && ifr.value !== 'true' && ifr.value !== 'false')
    return bad('iframe must be true or false.');
  if (loc.error) return bad(loc.error);
  if (loc.value !== undefined && loc.value !== locale)
    return bad(`locale "${clip(loc.value, 20)}" is not supported (en_US or sv_SE).`);

  const sc = single(q, 'scope');
  if (sc.error) return bad(sc.error);
  const scopes = parseScopes(sc.value ?? null);
  if (scopes.length === 0) return bad('scope is required (comma-separated scopes).');
  try {
    validateScopes(
      scopes,
      client,
      (s) => {
        throw new Error(`scope "${clip(s)}" is unknown.`);
      },
      (s) => {
        throw new Error(`scope "${clip(s)}" is not allowed for this client.`);
      },
    );
  } catch (err) {
    return bad((err as Error).message);
  }

  const mk = single(q, 'market');
  if (mk.error) return bad(mk.error);
  let market = DEFAULT_MARKET;
  if (mk.value !== undefined) {
    const m = mk.value.toUpperCase();
    if (!/^[A-Z]{2}$/.test(m) || !isMarket(m)) return bad(`market "${clip(mk.value, 20)}" is not a known market.`);
    market = m;
  }

  const un = single(q, 'input_username');
  if (un.error) return bad(un.error);
  if (un.value !== undefined && (un.value.length > MAX_USERNAME_LENGTH || hasControl(un.value)))
    return bad('input_username is too long or holds control characters.');

  const oi = single(q, 'opt_in');
  if (oi.error) return bad(oi.error);
  if (oi.value !== undefined && oi.value !== 'true' && oi.value !== 'false')
    return bad('opt_in must be true or false.');

  const pv = single(q, 'input_provider');
  if (pv.error) return bad(pv.error);
  // a malformed name is as unknown as a well-formed one that does not exist: the caller shows the screen
  const provider = pv.value !== undefined && pv.value !== '' ? pv.value : null;

  return {
    kind: 'ok',
    params: {
      client,
      redirectUri,
      scopes,
      market,
      marketFixed: mk.value !== undefined,
      locale,
      state,
      iframe,
      username: un.value ?? null,
      provider,
      optIn: oi.value === 'true',
    },
  };
}

export function plausibleProviderName(name: string): boolean {
  return PROVIDER_NAME.test(name);
}

/** redirect_uri with the result parameters added (its own query kept). */
export function resultUrl(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}
