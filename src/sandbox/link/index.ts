// The sandbox's hosted link service (spec 5, rules 5 and 6): GET {link_url}/1.0/authorize/ serves the
// link pages; the page script drives the public API with a short-lived user token of a temporary
// user; POST /link/1.0/complete and /link/1.0/fail end the flow and answer with where the result
// goes (redirect_uri with code and state, or error, message and credentials; a postMessage in
// iframe mode). Temporary users and their refresh tokens live 24 hours by the sandbox clock.
import { randomUUID } from 'node:crypto';
import { EP, expandPath } from '../../contract/index.js';
import { MARKETS } from '../../contract/markets.js';
import type { SandboxContext } from '../context.js';
import { asObject, envelope } from '../http.js';
import { handleAll, type Handler, type Reply, type RouteRow } from '../router.js';
import { issueAccessToken, issueCode, TEMP_USER_TTL_MS } from '../routes/oauth.js';
import type { MemoryStore } from '../store.js';
import { appPage, errorScreen, postMessagePage, type Page } from './html.js';
import { text, textsFor, type LinkLocale, type TextKey } from './i18n.js';
import { plausibleProviderName, resultUrl, validateAuthorize, type LinkParams, type Validation } from './params.js';
import { selfCall } from './self-call.js';
import { takeApiSession, type ApiLinkSession } from '../routes/user-profile.js';
import { makeTransactionReport } from '../routes/data-v2.js';

/** What the page's token may do: read providers, create and follow credentials. */
export const PAGE_SCOPES = ['providers:read', 'credentials:read', 'credentials:write', 'credentials:refresh'];
/** A link session (and its page token) lasts this long: enough for the 9-minute app waits, and more. */
export const SESSION_TTL_MS = 60 * 60 * 1000;
export const POLL_MIN_MS = 150;
export const POLL_MAX_MS = 2000;

export type FlowError =
  'BAD_REQUEST' | 'USER_CANCELLED' | 'AUTHENTICATION_ERROR' | 'INTERNAL_ERROR' | 'TEMPORARY_ERROR';

export interface LinkSession {
  id: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  iframe: boolean;
  locale: LinkLocale;
  userId: string;
  token: string;
  created: number;
  expiresAt: number;
  /** How it ended (a code, or an error status); a session ends once. */
  ended?: string;
  /** The Link session (POST /link/v1/session) the flow was started with. */
  apiSession?: ApiLinkSession;
}

/** Link sessions by id (the id is a secret only the page knows). */
export class LinkSessions {
  sessions = new Map<string, LinkSession>();
}

/** Credentials statuses that end the flow, and the hosted flow's error status each becomes. */
const FINAL_ERRORS: Record<string, FlowError> = {
  AUTHENTICATION_ERROR: 'AUTHENTICATION_ERROR',
  SESSION_EXPIRED: 'AUTHENTICATION_ERROR',
  TEMPORARY_ERROR: 'TEMPORARY_ERROR',
  PERMANENT_ERROR: 'INTERNAL_ERROR',
  DELETED: 'INTERNAL_ERROR',
};
const PAGE_ERRORS: Record<string, FlowError> = {
  USER_CANCELLED: 'USER_CANCELLED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  TEMPORARY_ERROR: 'TEMPORARY_ERROR',
};
const DEFAULT_MESSAGES: Record<FlowError, string> = {
  BAD_REQUEST: 'The link is misconfigured.',
  USER_CANCELLED: 'The user cancelled the flow.',
  AUTHENTICATION_ERROR: 'The authentication at the provider failed.',
  INTERNAL_ERROR: 'The link flow could not continue because of an internal error.',
  TEMPORARY_ERROR: 'The provider is temporarily unavailable; try again later.',
};

const ID = /^[A-Za-z0-9_-]{1,128}$/;

function sendPage(res: Reply, page: Page): void {
  res.send(page.status, page.html, 'text/html; charset=utf-8', page.headers);
}

function originOf(uri: string): string {
  return new URL(uri).origin;
}

/** Deletes temporary users whose 24 hours are over, and link sessions that expired. */
export function sweepExpired(store: MemoryStore): void {
  const now = store.clock.now();
  const expired = [...store.users.values()]
    .filter((u) => u.expiresAt !== undefined && u.expiresAt <= now)
    .map((u) => u.id);
  for (const id of expired) store.deleteUser(id);
  const sessions = sessionsOf(store);
  for (const [id, s] of sessions) {
    if (s.expiresAt <= now) {
      sessions.delete(id);
      store.tokens.delete(s.token);
    }
  }
}

const sessionsOf = (store: MemoryStore) => store.area('link', () => new LinkSessions()).sessions;

/** A provider by name through the public API (null for an unknown one), as the hosted page sees it. */
async function lookupProvider(
  ctx: SandboxContext,
  clientId: string,
  name: string,
): Promise<Record<string, unknown> | null> {
  if (!plausibleProviderName(name)) return null;
  const { store } = ctx;
  const { token } = issueAccessToken(store, 'client', clientId, ['providers:read']);
  try {
    const path = `${expandPath(EP.providers.byMarket, { market: name })}?includeTestProviders=true`;
    const r = await selfCall(ctx.baseUrl(), 'GET', path, token);
    if (r.status !== 200 || !r.body || typeof r.body !== 'object') return null;
    const b = r.body as Record<string, unknown>;
    const p = (
      b.name === name
        ? b
        : Array.isArray(b.providers)
          ? (b.providers as Array<Record<string, unknown>>).find((x) => x?.name === name)
          : b.provider
    ) as Record<string, unknown> | undefined;
    return p && p.name === name ? p : null;
  } finally {
    store.tokens.delete(token);
  }
}

/** The session of a finishing page: 404 unknown, 410 expired, 409 already ended. */
function openSession(store: MemoryStore, body: Record<string, unknown>): LinkSession {
  sweepExpired(store);
  const id = body.session;
  if (typeof id !== 'string' || !ID.test(id)) throw envelope(400, 'link.invalid_session', 'session is required');
  const s = sessionsOf(store).get(id);
  if (!s) throw envelope(410, 'link.session_expired', 'the link session does not exist or has expired');
  if (s.expiresAt <= store.clock.now()) throw envelope(410, 'link.session_expired', 'the link session has expired');
  if (s.ended) throw envelope(409, 'link.session_ended', `the link session has already ended (${s.ended})`);
  return s;
}

/** The session's credentials, read through the public API with the page's token. */
async function readCredentials(
  ctx: SandboxContext,
  s: LinkSession,
  credentialsId: unknown,
): Promise<Record<string, unknown>> {
  if (typeof credentialsId !== 'string' || !ID.test(credentialsId))
    throw envelope(400, 'link.invalid_credentials', 'credentialsId is required');
  const r = await selfCall(ctx.baseUrl(), 'GET', expandPath(EP.credentials.get, { id: credentialsId }), s.token);
  if (r.status === 404 || r.status === 401 || r.status === 403)
    throw envelope(404, 'link.credentials_not_found', 'no such credentials in this link session');
  if (r.status !== 200 || !r.body || typeof r.body !== 'object')
    throw envelope(502, 'link.credentials_unavailable', `the credentials could not be read (HTTP ${r.status})`);
  return r.body as Record<string, unknown>;
}

function end(store: MemoryStore, s: LinkSession, how: string): void {
  s.ended = how;
  store.tokens.delete(s.token);
}

type FlowResult =
  | { code: string; credentialsId?: string; transactionReportId?: string }
  | { error: FlowError; message: string; credentials?: Record<string, unknown>; providerName?: string };

/**
 * error_type and error_reason of a failed flow as the real service's callback carries them (Tink
 * Link error reference: error_reason always, error_type for AUTHENTICATION_ERROR).
 */
const ERROR_REASONS: Record<string, { reason: string; type?: string }> = {
  AUTHENTICATION_ERROR: { reason: 'STATIC_CREDENTIALS_INCORRECT', type: 'USER_LOGIN_ERROR' },
  TEMPORARY_ERROR: { reason: 'PROVIDER_UNAVAILABLE' },
  INTERNAL_ERROR: { reason: 'INTERNAL_ERROR' },
  USER_CANCELLED: { reason: 'USER_CANCELLED' },
};

/** Where a result goes: redirect_uri with code and state (or error, message, credentials), or a postMessage. */
function answer(s: LinkSession, result: FlowResult) {
  if ('code' in result) {
    if (s.iframe)
      return {
        action: 'postMessage',
        targetOrigin: originOf(s.redirectUri),
        message: {
          type: 'code',
          data: result.code,
          ...(result.credentialsId ? { additionalInformation: { credentialsId: result.credentialsId } } : {}),
        },
      };
    return {
      action: 'redirect',
      url: resultUrl(s.redirectUri, {
        code: result.code,
        credentials_id: result.credentialsId,
        state: s.state,
        transaction_report_id: result.transactionReportId,
      }),
    };
  }
  const userMessage = text(s.locale, `userMsg${result.error}` as TextKey);
  if (s.iframe) {
    const message: Record<string, unknown> = {
      type: 'error',
      error: { status: result.error, message: result.message, userMessage },
    };
    if (result.credentials) message.data = result.credentials;
    return { action: 'postMessage', targetOrigin: originOf(s.redirectUri), message };
  }
  const credentialsId = result.credentials && typeof result.credentials.id === 'string' ? result.credentials.id : null;
  return {
    action: 'redirect',
    url: resultUrl(s.redirectUri, {
      error: result.error,
      error_type: ERROR_REASONS[result.error]?.type,
      error_reason: ERROR_REASONS[result.error]?.reason ?? result.error,
      message: result.message,
      tracking_id: randomUUID(),
      provider_name: result.providerName,
      credentials: credentialsId,
      state: s.state,
    }),
  };
}

function authorizeRedirect(): Handler {
  return (req, res) => {
    const q = req.query.toString();
    res.send(308, '', 'text/plain; charset=utf-8', { location: `/link/1.0/authorize/${q ? `?${q}` : ''}` });
  };
}

/** A link that is not good: an error screen (bad client or redirect_uri), else BAD_REQUEST back to redirect_uri. */
function badLink(res: Reply, v: Exclude<Validation, { kind: 'ok' }>): void {
  if (v.kind === 'screen') {
    const lead = text(v.locale, 'badLinkText');
    return sendPage(
      res,
      errorScreen({
        status: 400,
        locale: v.locale,
        heading: text(v.locale, 'badLinkHeading'),
        lead,
        detail: v.message,
      }),
    );
  }
  if (v.iframe) {
    const message = {
      type: 'error',
      error: { status: 'BAD_REQUEST', message: v.message, userMessage: text(v.locale, 'userMsgBAD_REQUEST') },
    };
    const origin = originOf(v.redirectUri);
    return sendPage(res, postMessagePage({ locale: v.locale, frameAncestor: origin, message, targetOrigin: origin }));
  }
  const location = resultUrl(v.redirectUri, { error: 'BAD_REQUEST', message: v.message, state: v.state });
  res.send(302, '', 'text/plain; charset=utf-8', {
    location,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  });
}

function unknownProvider(res: Reply, p: LinkParams, frameAncestor: string | undefined): void {
  const name = p.provider!;
  const returnUrl = p.iframe
    ? undefined
    : resultUrl(p.redirectUri, {
        error: 'BAD_REQUEST',
        message: `unknown provider "${name.slice(0, 80)}"`,
        state: p.state,
      });
  sendPage(
    res,
    errorScreen({
      status: 404,
      locale: p.locale,
      frameAncestor,
      heading: text(p.locale, 'unknownProviderHeading'),
      lead: text(p.locale, 'unknownProviderText', { bank: name.slice(0, 128) }),
      returnUrl,
    }),
  );
}

/** A temporary user (24 hours) with a page token, and the session that ties them to this link. */
function startSession(store: MemoryStore, p: LinkParams): LinkSession {
  const now = store.clock.now();
  const userId = store.ids.next();
  store.addUser({
    id: userId,
    market: p.market,
    locale: p.locale,
    created: now,
    clientId: p.client.id,
    expiresAt: now + TEMP_USER_TTL_MS,
  });
  const { token } = issueAccessToken(store, 'user', p.client.id, PAGE_SCOPES, userId);
  const record = store.tokens.get(token);
  if (record) record.expiresAt = Math.min(record.expiresAt, now + SESSION_TTL_MS);
  const session: LinkSession = {
    id: store.ids.secret(24),
    clientId: p.client.id,
    redirectUri: p.redirectUri,
    scopes: p.scopes,
    state: p.state,
    iframe: p.iframe,
    locale: p.locale,
    userId,
    token,
    created: now,
    expiresAt: now + SESSION_TTL_MS,
  };
  sessionsOf(store).set(session.id, session);
  return session;
}

/** GET /link/1.0/authorize/: the link checked, then the app page of a new session. */
function authorize(ctx: SandboxContext): Handler {
  const { store } = ctx;
  return async (req, res) => {
    sweepExpired(store);
    const v = validateAuthorize(req.query, store);
    if (v.kind !== 'ok') return badLink(res, v);
    const p = v.params;
    const frameAncestor = p.iframe ? originOf(p.redirectUri) : undefined;
    if (req.method === 'HEAD') return res.send(200, '', 'text/html; charset=utf-8', { 'cache-control': 'no-store' });
    const provider = p.provider !== null ? await lookupProvider(ctx, p.client.id, p.provider) : null;
    if (p.provider !== null && !provider) return unknownProvider(res, p, frameAncestor);
    const sessionId = req.query.get('session_id');
    let apiSession: ApiLinkSession | undefined;
    if (sessionId) {
      const taken = takeApiSession(store, sessionId, p.client.id);
      if (typeof taken === 'string')
        return badLink(res, {
          kind: 'bad-request',
          message: taken,
          redirectUri: p.redirectUri,
          state: p.state,
          iframe: p.iframe,
          locale: p.locale,
        });
      apiSession = taken;
    }
    const session = startSession(store, p);
    session.apiSession = apiSession;
    const config = {
      session: session.id,
      token: session.token,
      locale: p.locale,
      texts: textsFor(p.locale),
      market: p.market,
      marketFixed: p.marketFixed,
      markets: p.marketFixed ? [p.market] : MARKETS,
      username: p.username,
      provider,
      iframe: p.iframe,
      optIn: p.optIn,
      pollMinMs: POLL_MIN_MS,
      pollMaxMs: POLL_MAX_MS,
    };
    sendPage(res, appPage({ locale: p.locale, frameAncestor, config }));
  };
}

/** POST /link/1.0/complete: the credentials are UPDATED, so the session ends with a code. */
function complete(ctx: SandboxContext): Handler {
  const { store } = ctx;
  return async (req, res) => {
    const body = asObject(await req.json());
    const s = openSession(store, body);
    const c = await readCredentials(ctx, s, body.credentialsId);
    if (c.status !== 'UPDATED')
      throw envelope(409, 'link.not_updated', `the credentials are ${String(c.status).slice(0, 40)}, not UPDATED`);
    if (s.ended) throw envelope(409, 'link.session_ended', `the link session has already ended (${s.ended})`);
    end(store, s, 'code');
    const code = issueCode(store, { clientId: s.clientId, userId: s.userId, scopes: s.scopes, withRefresh: true });
    // a flow started with a Link session ends with a transaction report of what was connected
    const transactionReportId = s.apiSession
      ? makeTransactionReport(store, {
          userId: s.userId,
          clientId: s.clientId,
          externalReference: s.apiSession.externalReference,
          merchantId: s.apiSession.merchantId,
        })
      : undefined;
    res.json(200, answer(s, { code, credentialsId: typeof c.id === 'string' ? c.id : undefined, transactionReportId }));
  };
}

/** The outcome of a failed flow: read from the credentials for a final status, never taken from the page. */
async function failure(
  ctx: SandboxContext,
  s: LinkSession,
  body: Record<string, unknown>,
): Promise<Exclude<FlowResult, { code: string }>> {
  const claimed = typeof body.status === 'string' ? body.status : '';
  if (Object.hasOwn(FINAL_ERRORS, claimed) && body.credentialsId !== undefined) {
    const c = await readCredentials(ctx, s, body.credentialsId);
    const actual = typeof c.status === 'string' ? c.status : '';
    if (actual !== claimed)
      throw envelope(409, 'link.status_mismatch', `the credentials are ${actual.slice(0, 40)}, not ${claimed}`);
    const error = FINAL_ERRORS[actual]!;
    const payload =
      typeof c.statusPayload === 'string' && c.statusPayload.trim()
        ? c.statusPayload.slice(0, 500)
        : DEFAULT_MESSAGES[error];
    return {
      error,
      message: payload,
      credentials: error === 'AUTHENTICATION_ERROR' ? c : undefined,
      providerName: typeof c.providerName === 'string' ? c.providerName : undefined,
    };
  }
  if (!Object.hasOwn(PAGE_ERRORS, claimed))
    throw envelope(
      400,
      'link.invalid_status',
      'status must be USER_CANCELLED, INTERNAL_ERROR, TEMPORARY_ERROR, or a final credentials status with its credentialsId',
    );
  const error = PAGE_ERRORS[claimed]!;
  // a cancelled connection does not stay behind half-made (best effort: the user is temporary anyway)
  if (error === 'USER_CANCELLED' && typeof body.credentialsId === 'string' && ID.test(body.credentialsId))
    await selfCall(ctx.baseUrl(), 'DELETE', expandPath(EP.credentials.delete, { id: body.credentialsId }), s.token);
  return { error, message: DEFAULT_MESSAGES[error] };
}

/** POST /link/1.0/fail: the session ends with the flow's error. */
function fail(ctx: SandboxContext): Handler {
  return async (req, res) => {
    const body = asObject(await req.json());
    const s = openSession(ctx.store, body);
    const result = await failure(ctx, s, body);
    if (s.ended) throw envelope(409, 'link.session_ended', `the link session has already ended (${s.ended})`);
    end(ctx.store, s, result.error);
    res.json(200, answer(s, result));
  };
}

const ROUTES: Array<RouteRow<SandboxContext>> = [
  [EP.link.authorizeRedirect, authorizeRedirect],
  [EP.link.authorize, authorize],
  [EP.link.complete, complete, { maxBody: 4096 }],
  [EP.link.fail, fail, { maxBody: 4096 }],
];

export function registerLinkService(ctx: SandboxContext): void {
  const { store } = ctx;
  store.onUserDeleted((userId) => {
    for (const [id, s] of sessionsOf(store)) if (s.userId === userId) sessionsOf(store).delete(id);
  });
  handleAll(ctx.handle, ctx, ROUTES);
}
