// Token acquisition and cache: client tokens by client_credentials, user tokens by grant + exchange,
// refresh tokens. Cached per profile and scope set until shortly before expiry.
import { createHash } from 'node:crypto';
import type { HttpClient } from '../http/client.js';
import type { CachedToken, ConfigStore } from '../config/store.js';
import { EP } from '../contract/index.js';
import { AuthError, BankctlError, ServerError, UsageError } from '../errors.js';

export interface TokenResponse {
  access_token: string;
  token_type?: string;
  expires_in?: number;
  scope?: string;
  refresh_token?: string;
  id_hint?: string;
  [k: string]: unknown;
}

export interface UserRef {
  userId?: string;
  externalUserId?: string;
}

/** Refresh this long before the server's expiry. */
export const EXPIRY_MARGIN_MS = 60_000;

export interface TokenDeps {
  /** Made when a token must be fetched: a cached token needs no HTTP client (nor undici loaded). */
  http: () => Promise<HttpClient>;
  config: ConfigStore;
  profileName: string;
  baseUrl: string;
  clientId?: string;
  clientSecret?: string;
  now: () => number;
  notice: (msg: string) => void;
  /** Where the acting user came from, when a setting named it: "profile prod" (for the hint of a 404). */
  userSource?: string;
  /**
   * The client id is the profile's own (an earlier `auth login`) while the base URL is the running
   * local sandbox's, which has a client of its own: a refused client is then most likely that.
   */
  clientShadowsSandbox?: boolean;
  /** Set when the profile's client secret must not go to this run's base URL (why): exit 2 before it is sent. */
  secretElsewhere?: string;
  /** -v: a line on stderr when a cached token is reused. */
  trace?: (line: string) => void;
}

export function normalizeScopes(scopes: string[] | string): string[] {
  const list = Array.isArray(scopes) ? scopes : scopes.split(/[,\s]+/);
  return [...new Set(list.map((s) => s.trim()).filter(Boolean))].sort();
}

export function userKey(u: UserRef): string {
  return u.userId ? `id:${u.userId}` : `ext:${u.externalUserId}`;
}

/** Whether a cached token's `user` is a userKey (a token of a known user), not a label. */
function isUserKey(user: string | undefined): boolean {
  return user !== undefined && (user.startsWith('id:') || user.startsWith('ext:'));
}

/** The client secret's part of a cache key: 12 hex digits of its SHA-256, never the secret. */
export function secretFingerprint(secret: string | undefined): string {
  return createHash('sha256')
    .update(secret ?? '')
    .digest('hex')
    .slice(0, 12);
}

/**
 * Whether this run would use a cached token (its key as `cacheKey` or `remember` made it): of this
 * base URL and client and, for a token fetched with the client's secret, of this secret too. A token
 * of a secret since rotated stays in the cache but is never sent again.
 */
export function usedNow(
  key: string,
  t: Pick<CachedToken, 'kind' | 'baseUrl' | 'clientId'>,
  now: { baseUrl: string; clientId?: string; clientSecret?: string },
): boolean {
  if (t.baseUrl !== now.baseUrl || (t.clientId ?? '') !== (now.clientId ?? '')) return false;
  const prefix = `${t.kind}:${t.baseUrl}:${t.clientId ?? ''}:`;
  if (!key.startsWith(prefix)) return true;
  // cacheKey: the secret's fingerprint next; remember: a label (link, exchanged..., id:..., ext:...)
  const m = /^([0-9a-f]{12})(?::|$)/.exec(key.slice(prefix.length));
  return !m || m[1] === secretFingerprint(now.clientSecret);
}

export class TokenManager {
  constructor(private readonly d: TokenDeps) {}

  private requireClient(): { clientId: string; clientSecret: string } {
    if (this.d.secretElsewhere)
      throw new UsageError(this.d.secretElsewhere, {
        hint: "unset BANKCTL_BASE_URL to use the profile's service, or pass --base-url URL to send the profile's client there on purpose",
      });
    // one of the two set: say which is missing (a client id with no secret read "no client credentials")
    if (this.d.clientId && !this.d.clientSecret)
      throw new AuthError(`client id ${this.d.clientId} has no client secret configured`, {
        hint: 'set BANKCTL_CLIENT_SECRET, pass --client-secret-stdin, or store both with `bankctl auth login` (the local sandbox lends its secret only with its own client id)',
      });
    if (!this.d.clientId && this.d.clientSecret)
      throw new AuthError('a client secret is configured but no client id', {
        hint: 'set BANKCTL_CLIENT_ID, pass --client-id, or store both with `bankctl auth login`',
      });
    if (!this.d.clientId || !this.d.clientSecret) {
      throw new AuthError('no client credentials configured', {
        hint: 'run `bankctl auth login`, set BANKCTL_CLIENT_ID and BANKCTL_CLIENT_SECRET, or start the local sandbox (`bankctl sandbox start`)',
      });
    }
    return { clientId: this.d.clientId, clientSecret: this.d.clientSecret };
  }

  /** Tokens are cached per base URL, client and secret (a changed secret must be checked again). */
  private cacheKey(kind: 'client' | 'user', scopes: string[], user?: UserRef): string {
    const who = kind === 'user' && user ? `:${userKey(user)}` : '';
    const secret = secretFingerprint(this.d.clientSecret);
    return `${kind}:${this.d.baseUrl}:${this.d.clientId ?? ''}:${secret}${who}:${scopes.join(',')}`;
  }

  private fromCache(key: string): CachedToken | undefined {
    const t = this.d.config.cachedTokens(this.d.profileName)[key];
    if (t && t.expiresAt - EXPIRY_MARGIN_MS > this.d.now()) {
      const left = Math.floor((t.expiresAt - this.d.now()) / 1000);
      this.d.trace?.(
        `reusing a cached ${t.kind} token${t.user ? ` of user ${t.user}` : ''} (scopes ${t.scope || '(none)'}; ${left} s left)`,
      );
      return t;
    }
    return undefined;
  }

  /** POST /api/v1/oauth/token with grant_type=client_credentials. Uncached. */
  async requestClientToken(scopes: string[]): Promise<TokenResponse> {
    const { clientId, clientSecret } = this.requireClient();
    const res = await (
      await this.d.http()
    )
      .request<TokenResponse>({
        method: 'POST',
        path: EP.oauth.token.path,
        form: {
          client_id: clientId,
          client_secret: clientSecret,
          grant_type: 'client_credentials',
          scope: scopes.join(','),
        },
        idempotent: true,
      })
      .catch((err: unknown) => {
        if (err instanceof BankctlError && statusOf(err) === 401 && this.d.clientShadowsSandbox)
          err.hint = `the client id comes from profile "${this.d.profileName}" (an earlier \`auth login\`), and the running sandbox has a client of its own: \`bankctl auth logout${this.d.profileName === 'default' ? '' : ` --profile ${this.d.profileName}`}\` lets the sandbox's client take over`;
        throw err;
      });
    return checkTokenResponse(res.data);
  }

  /** `fresh`: a new token even when one is cached (the service revoked it), which then replaces it. */
  async clientToken(scopesIn: string[], fresh = false): Promise<string> {
    const scopes = normalizeScopes(scopesIn);
    const key = this.cacheKey('client', scopes);
    const cached = fresh ? undefined : this.fromCache(key);
    if (cached) return cached.accessToken;
    const t = await this.requestClientToken(scopes);
    this.store(key, 'client', t, scopes);
    return t.access_token;
  }

  async grant(user: UserRef, scopes: string[], delegate?: { idHint: string; actorClientId: string }): Promise<string> {
    if (!user.userId && !user.externalUserId)
      throw new UsageError('a user is needed: pass --user ID or --external-user ID');
    const form: Record<string, string | undefined> = {
      user_id: user.userId,
      external_user_id: user.userId ? undefined : user.externalUserId,
      scope: normalizeScopes(scopes).join(','),
    };
    if (delegate) {
      form.id_hint = delegate.idHint;
      form.actor_client_id = delegate.actorClientId;
    }
    const http = await this.d.http();
    const post = async (clientToken: string) =>
      http.request<{ code: string }>({
        method: 'POST',
        path: (delegate ? EP.oauth.delegate : EP.oauth.grant).path,
        form,
        auth: { scheme: 'Bearer', token: clientToken },
        // safe to resend: a lost answer only leaves an unused code behind
        idempotent: true,
      });
    const clientToken = await this.clientToken(['authorization:grant']);
    const res = await post(clientToken)
      .catch(async (err: unknown) => {
        // a cached client token the service no longer takes (a sandbox clock moved or reset, a
        // revocation, a rotated secret): dropped, and the grant tried once more with a new one
        if (statusOf(err) === 401 && this.forget(clientToken))
          return post(await this.clientToken(['authorization:grant']));
        throw err;
      })
      .catch((err: unknown) => {
        // the user a profile names is gone (a sandbox restarted, the user deleted): say where it comes from
        if (err instanceof BankctlError && statusOf(err) === 404 && this.d.userSource) {
          const key = user.userId ? 'user' : 'external-user';
          const source = this.d.userSource;
          err.hint = source.startsWith('profile ')
            ? `the user comes from the ${source} setting "${key}"; clear it with \`bankctl config unset ${key} --profile ${source.slice(8)}\`, or pass --user`
            : 'the user comes from BANKCTL_USER in the environment; unset it, or pass --user';
        }
        throw err;
      });
    // a 2xx that is not what the endpoint returns is the server's fault (exit 7, as README's table
    // says), not a refusal of our credentials (3): a retry or the service's support is the way on
    if (!res.data || typeof res.data.code !== 'string' || res.data.code === '')
      throw new ServerError(
        `the authorization grant (POST ${(delegate ? EP.oauth.delegate : EP.oauth.grant).path}) answered ${res.status} without a code`,
      );
    (await this.d.http()).redactor.add(res.data.code);
    return res.data.code;
  }

  async exchange(code: string): Promise<TokenResponse> {
    const { clientId, clientSecret } = this.requireClient();
    (await this.d.http()).redactor.add(code);
    const res = await (
      await this.d.http()
    ).request<TokenResponse>({
      method: 'POST',
      path: EP.oauth.token.path,
      form: { client_id: clientId, client_secret: clientSecret, grant_type: 'authorization_code', code },
    });
    return checkTokenResponse(res.data);
  }

  async refresh(refreshToken: string): Promise<TokenResponse> {
    const { clientId, clientSecret } = this.requireClient();
    const res = await (
      await this.d.http()
    ).request<TokenResponse>({
      method: 'POST',
      path: EP.oauth.token.path,
      form: {
        client_id: clientId,
        client_secret: clientSecret,
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      },
    });
    return checkTokenResponse(res.data);
  }

  /** A user token with exactly these scopes: cached, else grant + exchange. */
  async userToken(user: UserRef, scopesIn: string[], fresh = false): Promise<string> {
    const scopes = normalizeScopes(scopesIn);
    const key = this.cacheKey('user', scopes, user);
    const cached = fresh ? undefined : this.fromCache(key);
    if (cached) return cached.accessToken;
    const code = await this.grant(user, scopes);
    const t = await this.exchange(code);
    this.store(key, 'user', t, scopes, userKey(user));
    return t.access_token;
  }

  /** Stores a token obtained elsewhere (auth exchange, auth link, auth refresh). */
  remember(t: TokenResponse, label: string, extra: Partial<CachedToken> = {}): string {
    const scopes = normalizeScopes(t.scope ?? '');
    const key = `user:${this.d.baseUrl}:${this.d.clientId ?? ''}:${label}`;
    this.store(key, 'user', t, scopes, label, extra);
    return key;
  }

  /** Drops a cached token after the service refused it (401). */
  forget(accessToken: string): boolean {
    const all = this.d.config.cachedTokens(this.d.profileName);
    for (const [key, t] of Object.entries(all)) {
      if (t.accessToken === accessToken) {
        this.d.config.dropToken(this.d.profileName, key);
        return true;
      }
    }
    return false;
  }

  /** Drops every cached token of a user (after the user was deleted or its tokens revoked). */
  forgetUser(user: UserRef): number {
    const key = userKey(user);
    let n = 0;
    for (const [k, t] of Object.entries(this.d.config.cachedTokens(this.d.profileName))) {
      if (t.user === key) {
        this.d.config.dropToken(this.d.profileName, k);
        n++;
      }
    }
    return n;
  }

  /** Cached user tokens of no known user (auth exchange, link, refresh keep them under a label). */
  unattributedUserTokens(): number {
    return Object.values(this.d.config.cachedTokens(this.d.profileName)).filter(
      (t) => t.kind === 'user' && !isUserKey(t.user),
    ).length;
  }

  isCached(accessToken: string): boolean {
    return Object.values(this.d.config.cachedTokens(this.d.profileName)).some((t) => t.accessToken === accessToken);
  }

  private store(
    key: string,
    kind: 'client' | 'user',
    t: TokenResponse,
    scopes: string[],
    user?: string,
    extra: Partial<CachedToken> = {},
  ): void {
    const now = this.d.now();
    const ttl = typeof t.expires_in === 'number' ? t.expires_in : kind === 'client' ? 1800 : 7200;
    const save = () =>
      this.d.config.putToken(
        this.d.profileName,
        key,
        {
          accessToken: t.access_token,
          refreshToken: t.refresh_token,
          scope: t.scope ? normalizeScopes(t.scope).join(',') : scopes.join(','),
          expiresAt: now + ttl * 1000,
          kind,
          user,
          baseUrl: this.d.baseUrl,
          clientId: this.d.clientId,
          ...extra,
        },
        now,
      );
    // a refresh token (auth link, exchange) is what the command was for: failing to keep it is an error
    if (t.refresh_token) return save();
    // an access token the client can fetch again is only a cache: a config that cannot be written
    // (read-only, full, locked) costs a token request next time, not this command
    try {
      save();
    } catch (err) {
      this.d.notice(`warning: the token was not cached (${(err as Error).message}): it is fetched again next time`);
    }
  }
}

const statusOf = (err: unknown): number | undefined => (err as { status?: number } | undefined)?.status;

function checkTokenResponse(data: TokenResponse | undefined): TokenResponse {
  // a 2xx without the token is not what the endpoint returns: exit 7 (a refusal is a 4xx, exit 3)
  if (!data || typeof data.access_token !== 'string' || data.access_token === '') {
    throw new ServerError('the token endpoint answered without an access_token');
  }
  return data;
}
