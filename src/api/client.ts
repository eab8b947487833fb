// Authenticated calls: picks the auth scheme each endpoint takes (scopes.ts), obtains the token
// with exactly the scope needed, and drops a cached token and retries once when it is refused.
import { ApiError, UsageError } from '../errors.js';
import type { Auth, HttpClient, HttpResponse, RequestOptions } from '../http/client.js';
import type { TokenManager, UserRef } from '../auth/tokens.js';
import { endpointFor, type TokenKind } from './scopes.js';

export interface Caller {
  /** A ready bearer token (--token). Used as is, never cached or dropped. */
  token?: string;
  /** HTTP Basic user:token for connector-pushed users (--basic). */
  basic?: string;
  connectorToken?: string;
  connectorTokenNext?: string;
  user?: UserRef;
}

export interface CallOptions extends Omit<RequestOptions, 'auth'> {
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
  ) {}

  async call<T = unknown>(o: CallOptions): Promise<HttpResponse<T>> {
    const { auth, cached } = await this.authFor(o);
    try {
      return await this.http.request<T>({ ...o, auth });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401 && auth && cached) {
        const tm = await this.tokens();
        const token = auth.scheme === 'Bearer' ? auth.token : '';
        if (tm.forget(token)) {
          const again = await this.authFor(o);
          return await this.http.request<T>({ ...o, auth: again.auth });
        }
      }
      const next = this.caller.connectorTokenNext;
      if (err instanceof ApiError && err.status === 401 && auth?.scheme === 'Token' && next && auth.token !== next) {
        // a renewal: the next token takes over for the rest of this run (said once)
        if (this.caller.connectorToken === auth.token) {
          this.notice('the connector token was refused (401); retrying with the next connector token');
          this.caller.connectorToken = next;
        }
        return await this.http.request<T>({ ...o, auth: { scheme: 'Token', token: next } });
      }
      throw err;
    }
  }

  async data<T = unknown>(o: CallOptions): Promise<T> {
    return (await this.call<T>(o)).data;
  }

  /** Resolves the Authorization for an endpoint; `cached` says whether a 401 may be retried. */
  async authFor(o: Pick<CallOptions, 'method' | 'path' | 'as' | 'scopes'>): Promise<{ auth?: Auth; cached: boolean }> {
    const ep = /^https?:/i.test(o.path) ? undefined : endpointFor(o.method, o.path.split('?')[0]!);
    const kind: TokenKind = o.as ?? ep?.token ?? 'any';
    const scopes = o.scopes ?? (ep && ep.scopes.length > 0 ? [ep.scopes[0]!] : []);
    const c = this.caller;
    if (kind === 'none') return { cached: false };
    if (kind === 'connector') {
      if (c.connectorToken) return { auth: { scheme: 'Token', token: c.connectorToken }, cached: false };
      if (c.token) return { auth: { scheme: 'Bearer', token: c.token }, cached: false };
      const tm = await this.tokens();
      return { auth: { scheme: 'Bearer', token: await tm.clientToken(scopes) }, cached: true };
    }
    if (c.token) return { auth: { scheme: 'Bearer', token: c.token }, cached: false };
    if (c.basic && (kind === 'user' || kind === 'any' || kind === 'optional')) {
      const i = c.basic.indexOf(':');
      if (i <= 0) throw new UsageError('--basic must be USER_ID:TOKEN');
      return {
        auth: { scheme: 'Basic', username: c.basic.slice(0, i), password: c.basic.slice(i + 1) },
        cached: false,
      };
    }
    const hasUser = Boolean(c.user?.userId || c.user?.externalUserId);
    if (kind === 'user' || ((kind === 'any' || kind === 'optional') && hasUser)) {
      if (!hasUser) {
        throw new UsageError(`${o.method} ${o.path} needs a user token`, {
          hint: 'pass --user ID (or --external-user ID), set BANKCTL_USER, or give a token with --token',
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
