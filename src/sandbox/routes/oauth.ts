// OAuth as spec section 5: token endpoint (client_credentials, authorization_code, refresh_token),
// authorization-grant and its delegate variant, revoke-all.
import { EP } from '../../contract/index.js';
import { ALL_SCOPES } from '../../contract/index.js';
import { envelope, HttpFailure, send } from '../http.js';
import type { SandboxContext } from '../context.js';
import { handleAll, type Handler, type Reply, type Req, type RouteRow } from '../router.js';
import type { ClientRecord, Store, UserRecord } from '../store.js';
import { secretsEqual } from '../../contract/secrets.js';

export const CLIENT_TOKEN_TTL_S = 1800;
export const USER_TOKEN_TTL_S = 7200;
export const CODE_TTL_MS = 10 * 60 * 1000;
export const TEMP_USER_TTL_MS = 24 * 60 * 60 * 1000;

const KNOWN_SCOPES = new Set(ALL_SCOPES);

export function parseScopes(raw: string | null): string[] {
  return [
    ...new Set(
      (raw ?? '')
        .split(/[,\s]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * Every answer of the token endpoint, a token or an error, carries these: RFC 6749 5.1 (a token
 * response MUST have `Cache-Control: no-store` and `Pragma: no-cache`); a proxy or a client cache
 * that kept one would hand a bearer token to the next caller.
 */
export const TOKEN_NO_STORE: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  pragma: 'no-cache',
});
/**
 * The challenge of a 401 at the token endpoint: the client authenticates with its id and secret,
 * in the form or as HTTP Basic (RFC 6749 2.3.1); RFC 9110 11.6.1 makes a challenge part of any 401,
 * and RFC 6749 5.2 one matching the scheme a client tried in the Authorization header.
 */
export const TOKEN_CHALLENGE = 'Basic realm="oauth", charset="UTF-8"';

function tokenError(status: 400 | 401, code: string, message: string): HttpFailure {
  const { body, contentType } = envelope(status, code, message);
  return new HttpFailure(
    status,
    body,
    contentType,
    status === 401 ? { ...TOKEN_NO_STORE, 'www-authenticate': TOKEN_CHALLENGE } : TOKEN_NO_STORE,
  );
}

/** The client id and secret of an `Authorization: Basic` header (RFC 6749 2.3.1: each form-urlencoded). */
function basicClient(header: string | undefined): { id: string; secret: string } | undefined {
  if (!header) return undefined;
  const sp = header.indexOf(' ');
  if (sp < 0 || header.slice(0, sp).toLowerCase() !== 'basic') return undefined;
  const decoded = Buffer.from(header.slice(sp + 1).trim(), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0)
    throw tokenError(401, 'authentication.invalid_basic', 'HTTP Basic credentials must be client_id:client_secret');
  const part = (v: string) => {
    try {
      return decodeURIComponent(v.replace(/\+/g, ' '));
    } catch {
      throw tokenError(401, 'authentication.invalid_basic', 'HTTP Basic credentials are not form-urlencoded');
    }
  };
  return { id: part(decoded.slice(0, i)), secret: part(decoded.slice(i + 1)) };
}

function authenticateClient(store: Store, form: URLSearchParams, authorization: string | undefined): ClientRecord {
  const basic = basicClient(authorization);
  if (basic && form.has('client_secret'))
    // RFC 6749 2.3: "MUST NOT use more than one authentication method in each request"
    throw tokenError(
      400,
      'request.invalid',
      'the client authenticated twice (HTTP Basic and client_secret in the form): use one of them',
    );
  if (basic && form.has('client_id') && form.get('client_id') !== basic.id)
    throw tokenError(400, 'request.invalid', 'client_id in the form is not the client of the HTTP Basic credentials');
  const id = basic ? basic.id : form.get('client_id');
  const secret = basic ? basic.secret : form.get('client_secret');
  if (!id) throw tokenError(400, 'request.missing_client_id', 'client_id is required');
  const client = store.clients.get(id);
  if (!client) throw tokenError(401, 'authentication.client_not_found', 'OAuth client not found');
  if (!secret || !secretsEqual(client.secret, secret))
    throw tokenError(401, 'authentication.invalid_client_secret', 'invalid client secret');
  return client;
}

export function issueAccessToken(
  store: Store,
  kind: 'client' | 'user',
  clientId: string,
  scopes: string[],
  userId?: string,
): { token: string; expiresIn: number } {
  const now = store.clock.now();
  const ttl = kind === 'client' ? CLIENT_TOKEN_TTL_S : USER_TOKEN_TTL_S;
  const token = store.ids.secret(24);
  store.tokens.set(token, {
    token,
    kind,
    clientId,
    userId,
    scopes: new Set(scopes),
    expiresAt: now + ttl * 1000,
    issuedAt: now,
  });
  return { token, expiresIn: ttl };
}

/** A single-use authorization code for a user (grant, delegate or the hosted flow). */
export function issueCode(
  store: Store,
  o: { clientId: string; userId: string; scopes: string[]; withRefresh: boolean; idHint?: string },
): string {
  const code = store.ids.secret(18);
  store.codes.set(code, { code, ...o, expiresAt: store.clock.now() + CODE_TTL_MS, used: false });
  return code;
}

export function validateScopes(
  scopes: string[],
  client: ClientRecord,
  onUnknown: (s: string) => never,
  onNotAllowed: (s: string) => never,
): void {
  for (const s of scopes) {
    if (!KNOWN_SCOPES.has(s)) onUnknown(s);
    if (!client.scopes.has(s)) onNotAllowed(s);
  }
}

function resolveUser(store: Store, form: URLSearchParams): UserRecord {
  const userId = form.get('user_id');
  const ext = form.get('external_user_id');
  if (userId && ext) throw envelope(400, 'request.invalid', 'user_id and external_user_id cannot both be given');
  if (!userId && !ext) throw envelope(400, 'request.invalid', 'user_id or external_user_id is required');
  const u = userId ? store.users.get(userId) : store.userByExternalId(ext!);
  if (!u) throw envelope(404, 'user.not_found', `user ${userId ? userId : `with external id ${ext}`} does not exist`);
  return u;
}

function isLatin1(s: string): boolean {
  return /^[\u0020-\u007e\u00a0-\u00ff]*$/.test(s);
}

type TokenBody = Record<string, unknown>;

/** One grant type of the token endpoint: the token response for an authenticated client's form. */
type GrantType = (store: Store, client: ClientRecord, form: URLSearchParams, now: number) => TokenBody;

function clientCredentials(store: Store, client: ClientRecord, form: URLSearchParams): TokenBody {
  // the reference: scope narrows the token; "if omitted defaults to the client scope"
  const asked = parseScopes(form.get('scope'));
  const scopes = asked.length > 0 ? asked : [...client.scopes].sort();
  validateScopes(
    scopes,
    client,
    (s) => {
      throw tokenError(400, 'request.invalid_scope', `unknown scope "${s.slice(0, 80)}"`);
    },
    (s) => {
      throw tokenError(400, 'request.scope_not_allowed', `scope "${s}" is not allowed for this client`);
    },
  );
  const t = issueAccessToken(store, 'client', client.id, scopes);
  return { access_token: t.token, token_type: 'bearer', expires_in: t.expiresIn, scope: scopes.join(',') };
}

function authorizationCode(store: Store, client: ClientRecord, form: URLSearchParams, now: number): TokenBody {
  const codeValue = form.get('code');
  if (!codeValue) throw tokenError(400, 'request.missing_code', 'code is required for grant_type=authorization_code');
  const code = store.codes.get(codeValue);
  if (!code || code.used || code.expiresAt <= now || code.clientId !== client.id) {
    throw tokenError(
      400,
      'request.invalid_code',
      'authorization code not valid (unknown, expired, already used, or issued to another client)',
    );
  }
  code.used = true;
  const user = store.users.get(code.userId);
  if (!user) throw tokenError(400, 'request.invalid_code', 'authorization code not valid: its user no longer exists');
  const t = issueAccessToken(store, 'user', client.id, code.scopes, user.id);
  const body: TokenBody = {
    access_token: t.token,
    token_type: 'bearer',
    expires_in: t.expiresIn,
    scope: code.scopes.join(','),
  };
  if (code.idHint) body.id_hint = code.idHint;
  if (code.withRefresh) {
    const refresh = store.ids.secret(24);
    const expiresAt = user.expiresAt ?? now + TEMP_USER_TTL_MS;
    store.refreshTokens.set(refresh, {
      token: refresh,
      clientId: client.id,
      userId: user.id,
      scopes: code.scopes,
      expiresAt,
    });
    body.refresh_token = refresh;
  }
  return body;
}

function refreshToken(store: Store, client: ClientRecord, form: URLSearchParams, now: number): TokenBody {
  const value = form.get('refresh_token');
  if (!value)
    throw tokenError(400, 'request.missing_refresh_token', 'refresh_token is required for grant_type=refresh_token');
  const r = store.refreshTokens.get(value);
  if (!r || r.clientId !== client.id || r.expiresAt <= now || !store.users.has(r.userId)) {
    if (r && r.expiresAt <= now) store.refreshTokens.delete(value);
    throw tokenError(
      400,
      'request.invalid_refresh_token',
      'refresh token not valid (unknown, expired, revoked, or issued to another client)',
    );
  }
  const t = issueAccessToken(store, 'user', client.id, r.scopes, r.userId);
  return {
    access_token: t.token,
    token_type: 'bearer',
    expires_in: t.expiresIn,
    scope: r.scopes.join(','),
    refresh_token: r.token,
  };
}

const GRANT_TYPES: Record<string, GrantType> = {
  client_credentials: clientCredentials,
  authorization_code: authorizationCode,
  refresh_token: refreshToken,
};

/** POST /api/v1/oauth/token: the client authenticated by its form, then its grant type's answer. */
function token(store: Store): Handler {
  return async (req, res) => {
    const form = await req.form();
    const client = authenticateClient(store, form, req.headers.authorization);
    const grantType = form.get('grant_type');
    const step = grantType !== null && Object.hasOwn(GRANT_TYPES, grantType) ? GRANT_TYPES[grantType] : undefined;
    if (!step)
      throw tokenError(
        400,
        'request.unsupported_grant_type',
        grantType
          ? `unsupported grant_type "${grantType.slice(0, 60)}"`
          : 'grant_type is required (client_credentials, authorization_code or refresh_token)',
      );
    send(res.raw, 200, step(store, client, form, store.clock.now()), 'application/json', TOKEN_NO_STORE);
  };
}

/** The delegate variant's own fields: id_hint and actor_client_id, both required. */
function delegateFields(form: URLSearchParams): { idHint: string; actor: string } {
  const idHint = form.get('id_hint') ?? undefined;
  if (!idHint || idHint.trim() === '') throw envelope(400, 'request.missing_id_hint', 'id_hint is required');
  if (!isLatin1(idHint))
    throw envelope(400, 'request.invalid_id_hint', 'id_hint must consist of ISO-8859-1 characters', {
      field: 'id_hint',
    });
  const actor = form.get('actor_client_id');
  if (!actor || actor.trim() === '')
    throw envelope(400, 'request.missing_actor_client_id', 'actor_client_id is required');
  return { idHint, actor };
}

/** POST /api/v1/oauth/authorization-grant (and /delegate): a single-use code for a user. */
function grant(store: Store, delegate: boolean): Handler {
  return async (req: Req, res: Reply) => {
    const form = await req.form();
    const client = store.clients.get(req.auth!.clientId!);
    if (!client) throw envelope(401, 'authentication.client_not_found', 'OAuth client not found');
    const scopes = parseScopes(form.get('scope'));
    if (scopes.length === 0) throw envelope(400, 'request.missing_scope', 'scope is required');
    const { idHint, actor } = delegate ? delegateFields(form) : { idHint: undefined, actor: client.id };
    validateScopes(
      scopes,
      client,
      (s) => {
        throw envelope(400, 'request.invalid_scope', `unknown scope "${s.slice(0, 80)}"`, { scope: s.slice(0, 80) });
      },
      (s) => {
        throw envelope(401, 'authorization.scope_not_allowed', `the client cannot grant the scope "${s}"`, {
          scope: s,
        });
      },
    );
    const user = resolveUser(store, form);
    if (user.clientId && user.clientId !== client.id)
      throw envelope(401, 'authorization.user_not_accessible', 'the client has no access to this user');
    if (user.connector?.blocked)
      throw envelope(409, 'user.blocked', 'the user is blocked; unblock it before granting access');
    const code = issueCode(store, { clientId: actor, userId: user.id, scopes, withRefresh: false, idHint });
    res.json(200, { code });
  };
}

/** POST /api/v1/oauth/revoke-all: every token, refresh token and code of the user. */
function revokeAll(store: Store): Handler {
  return async (req, res) => {
    const form = await req.form();
    const user = resolveUser(store, form);
    // the reference: 401 when the client "doesn't have access to the user" (as authorization-grant);
    // another app's client revoked every token of a user it does not own
    if (user.clientId && user.clientId !== req.auth?.clientId)
      throw envelope(401, 'authorization.user_not_accessible', 'the client has no access to this user');
    for (const [k, t] of store.tokens) if (t.userId === user.id) store.tokens.delete(k);
    for (const [k, r] of store.refreshTokens) if (r.userId === user.id) store.refreshTokens.delete(k);
    for (const [k, c] of store.codes) if (c.userId === user.id) store.codes.delete(k);
    res.empty(204);
  };
}

const ROUTES: Array<RouteRow<Store>> = [
  [EP.oauth.token, token],
  [EP.oauth.grant, (store) => grant(store, false)],
  [EP.oauth.delegate, (store) => grant(store, true)],
  [EP.oauth.revokeAll, revokeAll],
];

export function registerOAuth(ctx: SandboxContext): void {
  handleAll(ctx.handle, ctx.store, ROUTES);
}
