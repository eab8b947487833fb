// The sandbox's router: every route is an endpoint of the contract (src/contract/) with its handler,
// registered by handle(endpoint, handler). A request is matched against the contract's table once;
// the entry says how it is authenticated and which scopes it needs, and the router checks that
// before the handler runs. Fail closed: a path the table does not name is a 404, a handler for an
// endpoint outside the table is refused, and verify() refuses a table entry left without a handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ENDPOINTS, EndpointIndex, type Endpoint, type TokenKind } from '../contract/index.js';
import { envelope, HttpFailure, parseForm, parseJson, readBody, send } from './http.js';
import { secretsEqual } from '../contract/secrets.js';
import type { Store, UserRecord } from './store.js';

export interface AuthInfo {
  kind: 'client' | 'user' | 'connector';
  /** How the caller authenticated. */
  scheme: 'Bearer' | 'Token' | 'Basic';
  clientId?: string;
  userId?: string;
  scopes: Set<string>;
  token?: string;
}

export interface Req {
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: IncomingMessage['headers'];
  raw: IncomingMessage;
  auth?: AuthInfo;
  /** The contract entry this request matched. */
  endpoint: Endpoint;
  body(): Promise<Buffer>;
  /** Parsed JSON body; 400 when malformed, 415 for another content type. */
  json(opts?: { optional?: boolean }): Promise<unknown>;
  form(): Promise<URLSearchParams>;
  /** The authenticated user (404-free: 401 when the token's user is gone). */
  user(): UserRecord;
}

export interface Reply {
  raw: ServerResponse;
  json(status: number, body: unknown): void;
  text(status: number, body: string, contentType?: string): void;
  empty(status?: number): void;
  send(status: number, body: Buffer | string, contentType: string, headers?: Record<string, string>): void;
}

export type Handler = (req: Req, res: Reply) => unknown | Promise<unknown>;

export interface HandlerOptions {
  /** Body size limit in bytes. */
  maxBody?: number;
}

interface Route {
  handler: Handler;
  maxBody: number;
}

/** One row of an area's table: the endpoint, the handler made from the area's shared state, its options. */
export type RouteRow<A> = [endpoint: Endpoint, handler: (area: A) => Handler, opts?: HandlerOptions];

/** Serves every row of an area's table. */
export function handleAll<A>(
  handle: (endpoint: Endpoint, handler: Handler, opts?: HandlerOptions) => void,
  area: A,
  rows: Array<RouteRow<A>>,
): void {
  for (const [endpoint, handler, opts] of rows) handle(endpoint, handler(area), opts);
}

export const DEFAULT_MAX_BODY = 1024 * 1024;
/** The params of an endpoint without any: one object for all its requests. */
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

export class Router {
  private readonly index: EndpointIndex;
  private readonly routes = new Map<Endpoint, Route>();

  /** `table`: the contract's endpoints this router serves (tests give a part of it). */
  constructor(
    private readonly store: Store,
    readonly table: readonly Endpoint[] = ENDPOINTS,
  ) {
    this.index = new EndpointIndex(table);
  }

  /** Serves an endpoint of the table. Refused for an endpoint outside it, or one already handled. */
  handle(endpoint: Endpoint, handler: Handler, opts: HandlerOptions = {}): void {
    if (!this.table.includes(endpoint))
      throw new Error(`sandbox route ${endpoint.method} ${endpoint.path} has no contract entry`);
    if (this.routes.has(endpoint)) throw new Error(`sandbox route ${endpoint.id} is handled twice`);
    this.routes.set(endpoint, { handler, maxBody: opts.maxBody ?? DEFAULT_MAX_BODY });
  }

  /** The table's entries left without a handler. */
  unhandled(): Endpoint[] {
    return this.table.filter((e) => !this.routes.has(e));
  }

  /** Refuses to serve a table with an entry that has no handler (each named). */
  verify(): void {
    const missing = this.unhandled();
    if (missing.length > 0)
      throw new Error(
        `the sandbox has no handler for ${missing.map((e) => `${e.method} ${e.path} (${e.id})`).join(', ')}`,
      );
  }

  /**
   * Serves one request: `path` and `search` as new URL(target) gives them (see splitTarget). The
   * handler's promise when it is asynchronous, else undefined (a synchronous handler has answered,
   * or thrown): the hot path makes no promise of its own.
   */
  dispatch(raw: IncomingMessage, res: ServerResponse, path: string, search: string): Promise<void> | undefined {
    if (path.length > 1 && path.charCodeAt(path.length - 1) === 47 && !path.startsWith('/link'))
      path = path.replace(/\/+$/, '');
    const m = raw.method ?? 'GET';
    const method = m === 'GET' || m === 'POST' ? m : m.toUpperCase();
    const found = this.index.find(method, path);
    const route = found && this.routes.get(found.endpoint);
    if (!found || !route) {
      if (!found && this.index.hasPath(path)) {
        const allow = this.index.methodsFor(path).join(', ');
        const failure = envelope(405, 'request.method_not_allowed', `${method} is not allowed on ${path}`);
        throw new HttpFailure(405, failure.body, failure.contentType, { allow });
      }
      throw envelope(404, 'resource.not_found', `no such endpoint: ${method} ${path}`);
    }
    const { endpoint, match } = found;
    const names = endpoint.params;
    const params: Record<string, string> = names.length === 0 ? NO_PARAMS : {};
    for (let i = 0; i < names.length; i++) {
      try {
        params[names[i]!] = decodeURIComponent(match[i + 1]!);
      } catch {
        throw envelope(400, 'request.invalid', `malformed path parameter ${names[i]}`);
      }
    }
    const req = new SandboxRequest(this.store, raw, method, path, search, params, endpoint, route.maxBody);
    // an endpoint without a token (GET /version, the health check) makes no call for it
    if (endpoint.token !== 'none') req.auth = authenticate(this.store, raw, endpoint.token, endpoint.scopes);
    const out = route.handler(req, new SandboxReply(res));
    if (out !== null && typeof out === 'object' && typeof (out as PromiseLike<unknown>).then === 'function')
      return Promise.resolve(out).then(() => {
        if (!res.headersSent) send(res, 204);
      });
    if (!res.headersSent) send(res, 204);
    return undefined;
  }
}

/**
 * The path and query string of a request target exactly as `new URL(target, base)` gives them
 * (pathname, search), for a target that URL parsing leaves as it is: an absolute path of plain
 * characters, without dot segments, a leading `//`, a fragment or anything to percent-encode.
 * Anything else is undefined, and the caller asks the URL parser.
 */
export function splitTarget(target: string): { path: string; search: string } | undefined {
  if (target.charCodeAt(0) !== 47 || target.charCodeAt(1) === 47) return undefined;
  let q = -1;
  for (let i = 1; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c === 63 /* ? */) {
      if (q < 0) q = i;
      continue;
    }
    if (c < 128 && SAFE[c] === 1) {
      // a dot segment (also "%2e") is resolved by the URL parser
      if (q < 0 && (c === 46 || c === 37) && target.charCodeAt(i - 1) === 47) return undefined;
      continue;
    }
    return undefined;
  }
  if (q < 0) return { path: target, search: '' };
  // a lone "?" is an empty query, as URL has it
  return { path: target.slice(0, q), search: q === target.length - 1 ? '' : target.slice(q) };
}

/** Characters the URL parser keeps as they are in a path and a query (1), by code. */
const SAFE = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&()*+,;=:@/%')
  SAFE[ch.charCodeAt(0)] = 1;

/** The request a handler sees: one class, so that a request allocates no closures. */
class SandboxRequest implements Req {
  auth: AuthInfo | undefined = undefined;
  private bodyCache: Promise<Buffer> | undefined = undefined;
  private queryCache: URLSearchParams | undefined = undefined;

  constructor(
    private readonly store: Store,
    readonly raw: IncomingMessage,
    readonly method: string,
    readonly path: string,
    private readonly search: string,
    readonly params: Record<string, string>,
    readonly endpoint: Endpoint,
    private readonly maxBody: number,
  ) {}

  get headers(): IncomingMessage['headers'] {
    return this.raw.headers;
  }

  get query(): URLSearchParams {
    return (this.queryCache ??= new URLSearchParams(this.search));
  }

  body(): Promise<Buffer> {
    return (this.bodyCache ??= readBody(this.raw, { maxBytes: this.maxBody }));
  }

  async json(o?: { optional?: boolean }): Promise<unknown> {
    return parseJson(await this.body(), this.raw, o);
  }

  async form(): Promise<URLSearchParams> {
    return parseForm(await this.body(), this.raw);
  }

  user(): UserRecord {
    const id = this.auth?.userId;
    const u = id ? this.store.users.get(id) : undefined;
    if (!u)
      throw unauthorized(
        this.endpoint.token,
        'authentication.user_not_found',
        'the user of this token does not exist',
        this.auth?.scheme === 'Basic' ? 'basic' : 'bearer',
      );
    return u;
  }
}

class SandboxReply implements Reply {
  constructor(readonly raw: ServerResponse) {}
  json(status: number, body: unknown): void {
    send(this.raw, status, body, 'application/json');
  }
  text(status: number, body: string, contentType = 'text/plain; charset=utf-8'): void {
    send(this.raw, status, body, contentType);
  }
  empty(status = 204): void {
    send(this.raw, status);
  }
  send(status: number, body: Buffer | string, contentType: string, headers?: Record<string, string>): void {
    send(this.raw, status, body, contentType, headers);
  }
}

function authError(status: 401 | 403, code: string, message: string): HttpFailure {
  return envelope(status, code, message);
}

/** A quoted-string parameter of a challenge (RFC 9110 5.6.4): backslash and quote escaped. */
const quoted = (v: string) => `"${v.replace(/[\\"]/g, '\\$&')}"`;

/**
 * A 401 with the challenge RFC 9110 11.6.1 requires of every 401: the schemes the endpoint takes
 * (connector endpoints a connector `Token` or a client's Bearer token, the others Bearer), and for
 * a Bearer token that was sent but is not valid RFC 6750 3.1's `error="invalid_token"`. A missing
 * header gets no error code (RFC 6750 3.1); a failed HTTP Basic gets a Basic challenge.
 */
function unauthorized(
  kind: TokenKind,
  code: string,
  message: string,
  tried?: 'bearer' | 'token' | 'basic',
): HttpFailure {
  const { body, contentType } = envelope(401, code, message);
  let challenge: string;
  if (tried === 'basic') challenge = 'Basic realm="api", charset="UTF-8"';
  else {
    const error = tried ? `, error="invalid_token", error_description=${quoted(message)}` : '';
    const bearer = `Bearer realm="api"${tried === 'bearer' ? error : ''}`;
    challenge = kind === 'connector' ? `Token realm="connector"${tried === 'token' ? error : ''}, ${bearer}` : bearer;
  }
  return new HttpFailure(401, body, contentType, { 'www-authenticate': challenge });
}

/** RFC 6750 3.1: a token without the scope the endpoint needs is a 403 with `error="insufficient_scope"`. */
function insufficientScope(scopes: readonly string[]): HttpFailure {
  const { body, contentType } = envelope(
    403,
    'authorization.missing_scope',
    `the token lacks the required scope ${scopes.join(' or ')}`,
  );
  return new HttpFailure(403, body, contentType, {
    'www-authenticate': `Bearer realm="api", error="insufficient_scope", scope=${quoted(scopes.join(' '))}`,
  });
}

/** Who is calling, checked against what the endpoint takes: 401 missing/expired, 403 scope. */
export function authenticate(
  store: Store,
  raw: IncomingMessage,
  kind: TokenKind,
  scopes: readonly string[],
): AuthInfo | undefined {
  if (kind === 'none') return undefined;
  const header = raw.headers.authorization;
  if (!header) {
    if (kind === 'optional') return undefined;
    throw unauthorized(kind, 'authentication.missing', 'missing Authorization header');
  }
  const sp = header.indexOf(' ');
  const scheme = (sp > 0 ? header.slice(0, sp) : header).toLowerCase();
  const value = sp > 0 ? header.slice(sp + 1).trim() : '';
  let info: AuthInfo;
  if (scheme === 'bearer') {
    const t = store.tokens.get(value);
    if (!t) throw unauthorized(kind, 'authentication.invalid_token', 'the access token is not valid', 'bearer');
    if (t.expiresAt <= store.clock.now()) {
      store.tokens.delete(value);
      throw unauthorized(kind, 'authentication.expired_token', 'the access token has expired', 'bearer');
    }
    if (t.kind === 'user' && (!t.userId || !store.users.has(t.userId)))
      throw unauthorized(kind, 'authentication.user_not_found', 'the user of this token no longer exists', 'bearer');
    if (t.kind === 'user' && (store.users.get(t.userId!)!.expiresAt ?? Infinity) <= store.clock.now()) {
      // temporary users of the hosted flow: deleted after 24 hours (spec 5 rule 6)
      store.deleteUser(t.userId!);
      throwExpiredUser(kind);
    }
    info = { kind: t.kind, scheme: 'Bearer', clientId: t.clientId, userId: t.userId, scopes: t.scopes, token: value };
  } else if (scheme === 'token') {
    const connector = store.area('connector-tokens', () => new ConnectorTokens());
    if (!connector.isValid(value, store.clock.now()))
      throw unauthorized(
        kind,
        'authentication.invalid_token',
        'the connector token is not valid or has expired',
        'token',
      );
    info = { kind: 'connector', scheme: 'Token', scopes: new Set(['*']), token: value };
  } else if (scheme === 'basic') {
    let decoded = '';
    try {
      decoded = Buffer.from(value, 'base64').toString('utf8');
    } catch {
      /* handled below */
    }
    const i = decoded.indexOf(':');
    const u = i > 0 ? (store.userByExternalId(decoded.slice(0, i)) ?? store.users.get(decoded.slice(0, i))) : undefined;
    if (!u || !u.connector || !secretsEqual(u.connector.token, decoded.slice(i + 1))) {
      throw unauthorized(kind, 'authentication.invalid_basic', 'unknown user or wrong token for HTTP Basic', 'basic');
    }
    if (u.connector.blocked) throw authError(403, 'authentication.user_blocked', 'the user is blocked');
    info = { kind: 'user', scheme: 'Basic', userId: u.id, scopes: new Set(['*']) };
  } else {
    throw unauthorized(
      kind,
      'authentication.unsupported_scheme',
      `unsupported Authorization scheme "${scheme.slice(0, 20)}"`,
    );
  }
  // token kind
  if (kind === 'connector') {
    if (info.kind === 'user')
      throw authError(
        403,
        'authorization.wrong_token_type',
        'connector endpoints take a connector token or a client token',
      );
  } else if (kind === 'client' && info.kind !== 'client') {
    throw authError(403, 'authorization.wrong_token_type', 'this endpoint takes a client token');
  } else if (kind === 'user' && info.kind !== 'user') {
    throw authError(403, 'authorization.wrong_token_type', 'this endpoint takes a user token');
  } else if ((kind === 'any' || kind === 'optional') && info.kind === 'connector') {
    throw authError(403, 'authorization.wrong_token_type', 'this endpoint does not take a connector token');
  }
  if (scopes.length > 0 && !info.scopes.has('*') && !scopes.some((s) => info.scopes.has(s))) {
    throw insufficientScope(scopes);
  }
  return info;
}

/** Connector tokens valid at once (renewal grace): token -> expiry (epoch ms, null for none). */
export class ConnectorTokens {
  private readonly tokens = new Map<string, number | null>();
  add(token: string, expiresAt: number | null = null): void {
    this.tokens.set(token, expiresAt);
  }
  retire(token: string, at: number): void {
    if (this.tokens.has(token)) this.tokens.set(token, at);
  }
  isValid(token: string, now: number): boolean {
    for (const [t, exp] of this.tokens) if (secretsEqual(t, token) && (exp === null || exp > now)) return true;
    return false;
  }
  list(): string[] {
    return [...this.tokens.keys()];
  }
  /** Every token with when it ends (null: never). */
  entries(): Array<[string, number | null]> {
    return [...this.tokens];
  }
}

function throwExpiredUser(kind: TokenKind): never {
  throw unauthorized(
    kind,
    'authentication.user_expired',
    'the temporary user of this token was deleted after 24 hours',
    'bearer',
  );
}
