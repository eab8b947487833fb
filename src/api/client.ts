// Authenticated calls to the endpoints of the contract (src/contract/): call(endpoint, params) builds
// the path from the entry's template, picks the auth scheme and scope the entry names, obtains the
// token, drops a cached token and retries once when it is refused, and checks that a 2xx answer is
// what the entry says the endpoint returns (JSON read exactly, a PDF, text, or nothing).
import { endpointFor, expandPath, type Endpoint, type TokenKind } from '../contract/index.js';
import { readJson, writeJson } from '../contract/exact-json.js';
import { ApiError, NAME_A_USER, ServerError, UsageError } from '../errors.js';
import { envelopeCode } from '../http/error-body.js';
import type { Auth, HttpClient, HttpResponse, QueryValue, RequestOptions } from '../http/client.js';
import { requestIdText } from '../http/client.js';
import type { TokenManager, UserRef } from '../auth/tokens.js';
import { basicProblem } from '../config/checks.js';

export interface Caller {
  /** A ready bearer token (--token). Used as is, never cached or dropped. */
  token?: string;
  /** HTTP Basic user:token for connector-pushed users (--basic). */
  basic?: string;
  connectorToken?: string;
  connectorTokenNext?: string;
  /** The profile's (and a running sandbox's) connector tokens read again, for a renewal mid-run. */
  freshConnectorTokens?: () => string[];
  user?: UserRef;
  /**
   * The user was named by --user/--external-user and the ready token came from the environment or
   * the profile: the flag wins for calls that act as a user (the token may be another user's).
   */
  userOverToken?: boolean;
  /**
   * Why the profile's own ready token, HTTP Basic or connector token must not be sent this run (a
   * BANKCTL_BASE_URL names another service than the profile's): exit 2 where it would have been.
   */
  elsewhere?: { token?: string; basic?: string; connector?: string };
}

/** Exit 2 instead of sending a profile's credential to another service than the profile's own. */
function refuseElsewhere(why: string | undefined): void {
  if (why)
    throw new UsageError(why, {
      hint: "unset BANKCTL_BASE_URL to use the profile's service, or pass --base-url URL to send the profile's credentials there on purpose",
    });
}

/** What a call sends besides the entry's method and path. */
export interface CallParams {
  /** Values of the template's `{name}` parameters (percent-encoded here). */
  path?: Record<string, string>;
  query?: Record<string, QueryValue>;
  /** A JSON body, written exactly (an ExactNumber keeps its digits). */
  json?: unknown;
  form?: Record<string, string | undefined>;
  /** A JSON body already serialised. */
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** The Authorization to send instead of what the entry's token kind gives (a generated user token, HTTP Basic). */
  auth?: Auth;
  idempotent?: boolean;
  retries?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** See RequestOptions.onBodyDone: the body's buffer may be reused. */
  onBodyDone?: () => void;
  /** See RequestOptions.onAttempt. */
  onAttempt?: () => void;
  /** See RequestOptions.onAbandoned. */
  onAbandoned?: () => void;
  /** See RequestOptions.onAnswer. */
  onAnswer?: (status: number) => void;
}

/** A request the table may not know: the raw `api` command. */
export interface RawCallOptions extends Omit<RequestOptions, 'auth'> {
  /** Overrides the endpoint table: which kind of token to send. */
  as?: TokenKind;
  /** Overrides the endpoint table's scope. */
  scopes?: string[];
}

export class ApiClient {
  constructor(
    readonly http: HttpClient,
    private readonly tokens: () => Promise<TokenManager>,
    readonly caller: Caller,
    private readonly notice: (msg: string) => void = () => undefined,
    /** Requests other than GET and HEAD that the service answered with a 2xx, by every copy (as()). */
    readonly sent: { changes: number } = { changes: 0 },
  ) {}

  /** The same client calling as someone else: a ready user token, HTTP Basic of a pushed user. */
  as(caller: Caller): ApiClient {
    return new ApiClient(this.http, this.tokens, caller, this.notice, this.sent);
  }

  /** Counts an answered request that may have changed data. */
  private counted<T>(method: string, res: HttpResponse<T>): HttpResponse<T> {
    if (!/^(GET|HEAD)$/i.test(method) && res.status >= 200 && res.status < 300) this.sent.changes++;
    return res;
  }

  /** Calls an endpoint of the table; `data` is what its response kind gives (undefined for none). */
  async call<T = unknown>(ep: Endpoint, p: CallParams = {}): Promise<HttpResponse<T>> {
    const res = await this.send<string | Buffer>(ep, p, ep.response === 'pdf' ? 'buffer' : 'text');
    return { ...res, data: decodeResponse(ep, res) as T };
  }

  async data<T = unknown>(ep: Endpoint, p: CallParams = {}): Promise<T> {
    return (await this.call<T>(ep, p)).data;
  }

  /** A JSON endpoint's body as text, checked to be JSON by its content type but not parsed (fast paths). */
  async text(ep: Endpoint, p: CallParams = {}): Promise<HttpResponse<string>> {
    const res = await this.send<string>(ep, p, 'text');
    if (ep.response === 'json' || ep.response === 'paged') checkJsonType(ep, res);
    return res;
  }

  /** A JSON endpoint's body as bytes, checked to be JSON by its content type but not parsed (fast paths). */
  async bytes(ep: Endpoint, p: CallParams = {}): Promise<HttpResponse<Buffer>> {
    const res = await this.send<Buffer>(ep, p, 'buffer');
    if (ep.response === 'json' || ep.response === 'paged') checkJsonType(ep, res);
    return res;
  }

  /**
   * Any method and path (the raw `api` command). A path outside the table goes out only with an
   * explicit token kind (`as`), scopes, or a ready token (--token, --basic): never with a guess.
   */
  async request<T = unknown>(o: RawCallOptions): Promise<HttpResponse<T>> {
    const ep = endpointFor(o.method, o.path);
    if (!ep && !o.as && !o.scopes && !this.caller.token && !this.caller.basic) {
      throw new UsageError(`unknown endpoint: ${o.method} ${o.path.split('?')[0]} is not in the endpoint table`, {
        hint: 'pass --scope SCOPE or --as client|user|connector|none to say how to authenticate it',
      });
    }
    const kind: TokenKind = o.as ?? ep?.token ?? 'any';
    const scopes = o.scopes ?? (ep && ep.scopes.length > 0 ? [ep.scopes[0]!] : []);
    const { as: _as, scopes: _scopes, ...rest } = o;
    return this.counted(
      o.method,
      await this.withAuth<T>(`${o.method} ${o.path}`, kind, scopes, (auth) => this.http.request<T>({ ...rest, auth })),
    );
  }

  private async send<T>(ep: Endpoint, p: CallParams, responseType: 'text' | 'buffer'): Promise<HttpResponse<T>> {
    // an id of "." or ".." is no id: a URL reads it as a path step (even percent-encoded), and
    // `accounts get ..` would ask for the parent path instead
    for (const [name, v] of Object.entries(p.path ?? {}))
      if (v === '.' || v === '..') throw new UsageError(`"${v}" is not a valid ${name}: a URL reads it as a path step`);
    const o: RequestOptions = {
      method: ep.method,
      path: expandPath(ep, p.path),
      query: p.query,
      form: p.form,
      headers: ep.response === 'pdf' ? { accept: 'application/pdf', ...p.headers } : p.headers,
      idempotent: p.idempotent,
      retries: p.retries,
      timeoutMs: p.timeoutMs,
      signal: p.signal,
      responseType,
      onBodyDone: p.onBodyDone,
      onAttempt: p.onAttempt,
      onAbandoned: p.onAbandoned,
      onAnswer: p.onAnswer,
    };
    if (p.json !== undefined) {
      o.body = writeJson(p.json);
      o.contentType = 'application/json';
    } else if (p.body !== undefined) {
      o.body = p.body;
      o.contentType = 'application/json';
    }
    if (p.auth) return this.counted(ep.method, await this.http.request<T>({ ...o, auth: p.auth }));
    const scopes = ep.scopes.length > 0 ? [ep.scopes[0]!] : [];
    return this.counted(
      ep.method,
      await this.withAuth<T>(`${ep.method} ${o.path}`, ep.token, scopes, (auth) =>
        this.http.request<T>({ ...o, auth }),
      ),
    );
  }

  /** Sends with the auth a token kind gives; on a 401 drops a cached token (or renews the connector token) once. */
  private async withAuth<T>(
    what: string,
    kind: TokenKind,
    scopes: string[],
    send: (auth: Auth | undefined) => Promise<HttpResponse<T>>,
  ): Promise<HttpResponse<T>> {
    const { auth, cached } = await this.authFor(what, kind, scopes);
    try {
      return await send(auth);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401 && auth && cached) {
        const tm = await this.tokens();
        const token = auth.scheme === 'Bearer' ? auth.token : '';
        if (tm.forget(token)) return await send((await this.authFor(what, kind, scopes)).auth);
      }
      if (err instanceof ApiError && err.status === 401 && auth?.scheme === 'Token' && !userNotFound(err)) {
        // a renewal: the next token (as the run started, or saved since) takes over for the rest of
        // this run (said once); a 401 about the user is no token problem, and is not retried
        const next = [this.caller.connectorTokenNext, ...(this.caller.freshConnectorTokens?.() ?? [])].find(
          (t) => t && t !== auth.token,
        );
        if (next) {
          if (this.caller.connectorToken === auth.token) {
            this.notice('the connector token was refused (401); retrying with the next connector token');
            this.caller.connectorToken = next;
          }
          try {
            return await send({ scheme: 'Token', token: next });
          } catch (again) {
            if (!(again instanceof ApiError && again.status === 401)) throw again;
            // the first answer is the one about the token the user gave
            err.hint = `the next connector token (connector-token-next) was refused too${err.hint ? `; ${err.hint}` : ''}`;
            throw err;
          }
        }
      }
      if (err instanceof ApiError && err.status === 403 && !err.hint) {
        const given = auth?.scheme === 'Bearer' && auth.token === this.caller.token;
        if (given) err.hint = givenTokenHint(kind, scopes[0]);
      }
      throw err;
    }
  }

  /** The Authorization for a token kind and scope; `cached` says whether a 401 may be retried. */
  async authFor(what: string, kind: TokenKind, scopes: string[]): Promise<{ auth?: Auth; cached: boolean }> {
    const c = this.caller;
    if (kind === 'none') return { cached: false };
    if (kind === 'connector') {
      if (c.connectorToken) {
        refuseElsewhere(c.elsewhere?.connector);
        return { auth: { scheme: 'Token', token: c.connectorToken }, cached: false };
      }
      if (c.token) {
        refuseElsewhere(c.elsewhere?.token);
        return { auth: { scheme: 'Bearer', token: c.token }, cached: false };
      }
      const tm = await this.tokens();
      return { auth: { scheme: 'Bearer', token: await tm.clientToken(scopes) }, cached: true };
    }
    if (c.token && !(c.userOverToken && kind !== 'client')) {
      refuseElsewhere(c.elsewhere?.token);
      return { auth: { scheme: 'Bearer', token: c.token }, cached: false };
    }
    if (c.basic && (kind === 'user' || kind === 'any' || kind === 'optional')) {
      refuseElsewhere(c.elsewhere?.basic);
      const problem = basicProblem(c.basic);
      if (problem) throw new UsageError(`--${problem}`);
      const i = c.basic.indexOf(':');
      return {
        auth: { scheme: 'Basic', username: c.basic.slice(0, i), password: c.basic.slice(i + 1) },
        cached: false,
      };
    }
    const hasUser = Boolean(c.user?.userId || c.user?.externalUserId);
    if (kind === 'user' || ((kind === 'any' || kind === 'optional') && hasUser)) {
      if (!hasUser) {
        throw new UsageError(`${what} needs a user token`, {
          hint: `${NAME_A_USER}, or give a token with --token`,
        });
      }
      const tm = await this.tokens();
      return { auth: { scheme: 'Bearer', token: await tm.userToken(c.user!, scopes) }, cached: true };
    }
    if (kind === 'optional') return { cached: false };
    const tm = await this.tokens();
    return { auth: { scheme: 'Bearer', token: await tm.clientToken(scopes) }, cached: true };
  }
}

/**
 * A 403 on a token the user handed over (--token, BANKCTL_TOKEN, the profile's token): it is sent as
 * is, so the usual slip is a token of the other kind (a client token from `auth token --scope
 * user:create` for a user's read) or without the scope. What this endpoint takes, and how to get it.
 */
function givenTokenHint(kind: TokenKind, scope: string | undefined): string | undefined {
  const withScope = scope ? ` with ${scope}` : '';
  const flag = scope ? ` --scope ${scope}` : '';
  if (kind === 'user')
    return `this endpoint takes a user token${withScope}, and the token given (--token, BANKCTL_TOKEN or the profile's) is sent as is: pass --user ID (or --external-user ID) instead and bankctl gets one, or \`bankctl auth token${flag} --user ID\` makes one`;
  if (kind === 'client')
    return `this endpoint takes a client token${withScope}, and the token given (--token, BANKCTL_TOKEN or the profile's) is sent as is: leave it out and bankctl gets one, or \`bankctl auth token${flag}\` makes one`;
  return undefined;
}

// ---- what a 2xx answer must be ----------------------------------------------------------------

function header(res: HttpResponse<unknown>, name: string): string {
  const v = res.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

/** The first bytes of a body as a person may see them: control characters and escapes shown, not sent. */
export function preview(body: string | Buffer, max = 60): string {
  const text = (typeof body === 'string' ? body : body.subarray(0, max * 4).toString('utf8')).slice(0, max);
  const shown = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) =>
    c === '\n' || c === '\r' || c === '\t' ? ' ' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `${shown}${(typeof body === 'string' ? body.length : body.length) > max ? '…' : ''}`;
}

export function notWhatItReturns(
  ep: { method: string },
  res: HttpResponse<unknown>,
  what: string,
  body: string | Buffer,
): ServerError {
  const type = header(res, 'content-type') || 'no content type';
  const path = new URL(res.url).pathname;
  // redacted before it is cut short, so that no part of a secret is left at the cut
  const head = typeof body === 'string' ? body.slice(0, 4096) : body.subarray(0, 4096).toString('utf8');
  const quoted = res.redact ? res.redact(head) : head;
  const first = body.length > 0 ? `: "${preview(quoted)}"` : '';
  const ids = requestIdText(res.requestId, res.headers['x-request-id']);
  return new ServerError(
    `${ep.method} ${path} answered ${res.status} (${type}) with ${what}${first}${ids ? ` [${ids}]` : ''}`,
    {
      hint: 'check the base URL (`bankctl config list`): a proxy, a login page or another service may be answering',
    },
  );
}

function checkJsonType(ep: Endpoint, res: HttpResponse<string | Buffer>): void {
  const type = header(res, 'content-type').split(';')[0]!.trim().toLowerCase();
  if (type && !/[/+]json$/.test(type)) throw notWhatItReturns(ep, res, 'a body that is not JSON', res.data);
}

/** A 2xx answer as the entry's response kind gives it, or a ServerError naming what came instead. */
export function decodeResponse(ep: Endpoint, res: HttpResponse<string | Buffer>): unknown {
  const body = res.data;
  switch (ep.response) {
    case 'empty':
      return undefined;
    case 'pdf': {
      const buf = Buffer.isBuffer(body) ? body : Buffer.from(body);
      if (buf.subarray(0, 5).toString('latin1') !== '%PDF-') throw notWhatItReturns(ep, res, 'no PDF', buf);
      return buf;
    }
    case 'json':
    case 'paged': {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (res.status === 204) return undefined;
      if (text.trim() === '') throw notWhatItReturns(ep, res, 'an empty body instead of JSON', text);
      checkJsonType(ep, res as HttpResponse<string>);
      try {
        return readJson(text);
      } catch {
        throw notWhatItReturns(ep, res, 'malformed JSON', text);
      }
    }
    default:
      return typeof body === 'string' ? body : body.toString('utf8');
  }
}

/** A connector 401 about the user, not the token (spec: "401 user not found"). */
function userNotFound(err: ApiError): boolean {
  return envelopeCode(err.body) === 'user.not_found' || /\buser\b[^.]*\bnot found\b/i.test(err.message);
}
