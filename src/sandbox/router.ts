// A small router: method + path pattern -> handler. Authentication and scope checks come from the
// shared endpoint table (api/scopes.ts), so the sandbox enforces exactly what the CLI asks for.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { endpointFor, type TokenKind } from '../api/scopes.js';
import { envelope, HttpFailure, parseForm, parseJson, readBody, send } from './http.js';
import { secretsEqual } from '../secrets.js';
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

export interface RouteOptions {
  /** Overrides the endpoint table for routes it does not list (link pages, extras). */
  auth?: TokenKind;
  scopes?: string[];
  /** Body size limit in bytes. */
  maxBody?: number;
}

interface Route {
  method: string;
  regex: RegExp;
  params: string[];
  literalSegments: number;
  handler: Handler;
  opts: RouteOptions;
  pattern: string;
}

export const DEFAULT_MAX_BODY = 1024 * 1024;

export class Router {
  private readonly routes: Route[] = [];
  /** Routes by segment count, literal-first: a request tests only the patterns of its length. */
  private readonly bySegments = new Map<number, Route[]>();

  constructor(private readonly store: Store) {}

  add(method: string, pattern: string, handler: Handler, opts: RouteOptions = {}): void {
    const params: string[] = [];
    const regex = new RegExp(
      `^${pattern.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
        params.push(name);
        return '([^/]+)';
      })}$`,
    );
    const literalSegments = pattern.split('/').filter((s) => s && !s.startsWith('{')).length;
    const route = { method: method.toUpperCase(), regex, params, literalSegments, handler, opts, pattern };
    this.routes.push(route);
    const n = pattern.split('/').length;
    const list = this.bySegments.get(n) ?? [];
    list.push(route);
    // literal segments win over parameters: /credentials/list before /credentials/{id}
    list.sort((a, b) => b.literalSegments - a.literalSegments);
    this.bySegments.set(n, list);
  }

  get(p: string, h: Handler, o?: RouteOptions) {
    this.add('GET', p, h, o);
  }
  post(p: string, h: Handler, o?: RouteOptions) {
    this.add('POST', p, h, o);
  }
  put(p: string, h: Handler, o?: RouteOptions) {
    this.add('PUT', p, h, o);
  }
  delete(p: string, h: Handler, o?: RouteOptions) {
    this.add('DELETE', p, h, o);
  }

  async handle(raw: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const reply = makeReply(res);
    let path: string;
    try {
      path = url.pathname;
      if (path.length > 1 && path.endsWith('/') && !path.startsWith('/link')) path = path.replace(/\/+$/, '');
    } catch {
      throw envelope(400, 'request.invalid', 'malformed URL');
    }
    const method = (raw.method ?? 'GET').toUpperCase();
    let matched: Route | undefined;
    let methodMismatch = false;
    let m: RegExpExecArray | null = null;
    for (const r of this.bySegments.get(path.split('/').length) ?? []) {
      const hit = r.regex.exec(path);
      if (!hit) continue;
      if (r.method !== method && !(method === 'HEAD' && r.method === 'GET')) {
        methodMismatch = true;
        continue;
      }
      matched = r;
      m = hit;
      break;
    }
    if (!matched || !m) {
      if (methodMismatch) throw envelope(405, 'request.method_not_allowed', `${method} is not allowed on ${path}`);
      throw envelope(404, 'resource.not_found', `no such endpoint: ${method} ${path}`);
    }
    const params: Record<string, string> = {};
    matched.params.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(m![i + 1]!);
      } catch {
        throw envelope(400, 'request.invalid', `malformed path parameter ${name}`);
      }
    });
    let bodyCache: Promise<Buffer> | undefined;
    const maxBody = matched.opts.maxBody ?? DEFAULT_MAX_BODY;
    const store = this.store;
    const req: Req = {
      method,
      path,
      query: url.searchParams,
      params,
      headers: raw.headers,
      raw,
      body: () => (bodyCache ??= readBody(raw, { maxBytes: maxBody })),
      json: async (o) => parseJson(await req.body(), raw, o),
      form: async () => parseForm(await req.body(), raw),
      user() {
        const id = req.auth?.userId;
        const u = id ? store.users.get(id) : undefined;
        if (!u) throw envelope(401, 'authentication.user_not_found', 'the user of this token does not exist');
        return u;
      },
    };
    const ep = endpointFor(method, path);
    const kind: TokenKind = matched.opts.auth ?? ep?.token ?? 'none';
    const scopes = matched.opts.scopes ?? ep?.scopes ?? [];
    req.auth = authenticate(this.store, raw, kind, scopes);
    await matched.handler(req, reply);
    if (!res.headersSent) reply.empty(204);
  }
}

function makeReply(res: ServerResponse): Reply {
  return {
    raw: res,
    json: (status, body) => send(res, status, body, 'application/json'),
    text: (status, body, contentType = 'text/plain; charset=utf-8') => send(res, status, body, contentType),
    empty: (status = 204) => send(res, status),
    send: (status, body, contentType, headers) => send(res, status, body, contentType, headers),
  };
}

function authError(status: 401 | 403, code: string, message: string): HttpFailure {
  return envelope(status, code, message);
}

/** Who is calling, checked against what the endpoint takes: 401 missing/expired, 403 scope. */
export function authenticate(
  store: Store,
  raw: IncomingMessage,
  kind: TokenKind,
  scopes: string[],
): AuthInfo | undefined {
  if (kind === 'none') return undefined;
  const header = raw.headers.authorization;
  if (!header) {
    if (kind === 'optional') return undefined;
    throw authError(401, 'authentication.missing', 'missing Authorization header');
  }
  const sp = header.indexOf(' ');
  const scheme = (sp > 0 ? header.slice(0, sp) : header).toLowerCase();
  const value = sp > 0 ? header.slice(sp + 1).trim() : '';
  let info: AuthInfo;
  if (scheme === 'bearer') {
    const t = store.tokens.get(value);
    if (!t) throw authError(401, 'authentication.invalid_token', 'the access token is not valid');
    if (t.expiresAt <= store.clock.now()) {
      store.tokens.delete(value);
      throw authError(401, 'authentication.expired_token', 'the access token has expired');
    }
    if (t.kind === 'user' && (!t.userId || !store.users.has(t.userId)))
      throw authError(401, 'authentication.user_not_found', 'the user of this token no longer exists');
    if (t.kind === 'user' && (store.users.get(t.userId!)!.expiresAt ?? Infinity) <= store.clock.now()) {
      // temporary users of the hosted flow: deleted after 24 hours (spec 5 rule 6)
      store.deleteUser(t.userId!);
      throwExpiredUser();
    }
    info = { kind: t.kind, scheme: 'Bearer', clientId: t.clientId, userId: t.userId, scopes: t.scopes, token: value };
  } else if (scheme === 'token') {
    const connector = store.area('connector-tokens', () => new ConnectorTokens());
    if (!connector.isValid(value, store.clock.now()))
      throw authError(401, 'authentication.invalid_token', 'the connector token is not valid or has expired');
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
      throw authError(401, 'authentication.invalid_basic', 'unknown user or wrong token for HTTP Basic');
    }
    if (u.connector.blocked) throw authError(403, 'authentication.user_blocked', 'the user is blocked');
    info = { kind: 'user', scheme: 'Basic', userId: u.id, scopes: new Set(['*']) };
  } else {
    throw authError(
      401,
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
    throw authError(403, 'authorization.missing_scope', `the token lacks the required scope ${scopes.join(' or ')}`);
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
}

function throwExpiredUser(): never {
  throw authError(401, 'authentication.user_expired', 'the temporary user of this token was deleted after 24 hours');
}
