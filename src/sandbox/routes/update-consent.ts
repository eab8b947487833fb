// The update-consent page of the link service (spec 4.6):
//   {link_url}/1.0/transactions/update-consent?client_id&redirect_uri&credentials_id&authorization_code&market
// served by the sandbox under /link. GET checks everything and shows a page that names the consent,
// its accounts and the session's current expiry, with "Extend" and "Cancel" buttons; the form POSTs
// back to the same path. POST consumes the single-use authorization code, extends the session by
// CONSENT_SESSION_DAYS from now, and redirects to redirect_uri with credentials_id (and state).
// Until the client and redirect_uri are known good, errors are an HTML page (never a redirect to an
// unchecked URI); after that they go to redirect_uri as error=BAD_REQUEST|USER_CANCELLED&message=...
import { EP, LINK_ACTOR_CLIENT_ID } from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { HttpFailure } from '../http.js';
import type { Req } from '../router.js';
import type { CodeRecord, MemoryStore, UserRecord } from '../store.js';
import { credentialsOf } from './credentials-view.js';

export const UPDATE_CONSENT_PATH = '/link/1.0/transactions/update-consent';
export const CONSENT_SESSION_DAYS = 90;
/** The scope a code must carry to update a consent. */
export const UPDATE_CONSENT_SCOPE = 'credentials:refresh';

/** Session expiries set by this page, per credentials id (epoch ms). */
export class ConsentSessions {
  expiry: Record<string, number> = {};
}

export function consentSessions(store: MemoryStore): ConsentSessions {
  return store.area('consent-sessions', () => new ConsentSessions());
}

/** The session expiry the page last set for these credentials, if any. */
export function consentSessionExpiry(store: MemoryStore, credentialsId: string): number | undefined {
  return consentSessions(store).expiry[credentialsId];
}

/** Hooks to the credentials area: whether a user holds these credentials, and what to call them. */
export interface ConsentLookup {
  owns(store: MemoryStore, user: UserRecord, credentialsId: string): boolean;
  describe(
    store: MemoryStore,
    credentialsId: string,
  ): { providerName?: string; sessionExpiryDate?: number } | undefined;
  /** Applies the new expiry to the credentials' own record (provider-consents then shows it). */
  extend?(store: MemoryStore, credentialsId: string, expiresAt: number): void;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(status: number, title: string, body: string): HttpFailure {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#062a2e}
button{font-size:1rem;padding:.6rem 1.4rem;border-radius:2rem;border:0;margin-right:.5rem;cursor:pointer}
.go{background:#062a2e;color:#fff}.stop{background:#e6e6e6}dt{font-weight:600}dd{margin:0 0 .6rem 0}</style>
</head><body><h1>${esc(title)}</h1>${body}</body></html>`;
  return new HttpFailure(status, html, 'text/html; charset=utf-8', {
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  });
}

function redirect(uri: string, params: Record<string, string | undefined>): HttpFailure {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return new HttpFailure(302, '', 'text/plain; charset=utf-8', { location: u.toString(), 'cache-control': 'no-store' });
}

interface Checked {
  clientId: string;
  redirectUri: string;
  credentialsId: string;
  code: CodeRecord;
  user: UserRecord;
  state?: string;
  market?: string;
}

/** Credentials a user holds: those of the credentials area, else those their accounts or connector name. */
export const consentLookup: ConsentLookup = {
  owns(store: MemoryStore, user: UserRecord, credentialsId: string): boolean {
    const c = credentialsOf(store, credentialsId);
    if (c) return c.userId === user.id;
    if (user.connector?.credentialsId === credentialsId) return true;
    for (const a of store.accounts.values())
      if (a.userId === user.id && a.credentialsIds.includes(credentialsId)) return true;
    return false;
  },
  describe(store: MemoryStore, credentialsId: string) {
    const c = credentialsOf(store, credentialsId);
    return c ? { providerName: c.providerName, sessionExpiryDate: c.sessionExpiryDate ?? undefined } : undefined;
  },
};

/** The page's effect on the credentials record: a new session; an expired one is UPDATED again. */
function extender(ctx: SandboxContext) {
  return (store: MemoryStore, credentialsId: string, expiresAt: number) => {
    const c = credentialsOf(store, credentialsId);
    if (!c) return;
    c.sessionExpiryDate = expiresAt;
    if (c.status === 'SESSION_EXPIRED') {
      const now = store.clock.now();
      c.status = 'UPDATED';
      c.statusPayload = 'The consent was renewed.';
      c.statusUpdated = Math.max(now, c.statusUpdated + 1);
      c.needsAuth = false;
      delete c.detailedError;
      const content = {
        id: c.id,
        providerName: c.providerName,
        type: c.type,
        status: c.status,
        statusPayload: c.statusPayload,
        statusUpdated: c.statusUpdated,
        updated: c.updated,
        sessionExpiryDate: c.sessionExpiryDate,
        userId: c.userId,
      };
      ctx.events.emit({ event: 'credentials:update', userId: c.userId, content, orderKey: c.id }, now);
    }
  };
}

export function registerUpdateConsent(ctx: SandboxContext): void {
  const { store, handle } = ctx;
  const lookup: ConsentLookup = { ...consentLookup, extend: extender(ctx) };

  function check(p: URLSearchParams): Checked {
    const get = (k: string) => {
      const v = p.get(k);
      return v === null || v.trim() === '' ? undefined : v.slice(0, 2048);
    };
    const clientId = get('client_id');
    const redirectUri = get('redirect_uri');
    if (!clientId) throw page(400, 'Link misconfigured', '<p>client_id is missing.</p>');
    const client = store.clients.get(clientId);
    if (!client) throw page(400, 'Link misconfigured', '<p>This client_id is not known.</p>');
    if (!redirectUri) throw page(400, 'Link misconfigured', '<p>redirect_uri is missing.</p>');
    if (!client.redirectUris.includes(redirectUri))
      throw page(
        400,
        'Link misconfigured',
        `<p>The redirect_uri <code>${esc(redirectUri)}</code> is not registered for this client.</p>`,
      );
    const state = get('state');
    const fail = (message: string) => redirect(redirectUri, { error: 'BAD_REQUEST', message, state });
    const credentialsId = get('credentials_id');
    if (!credentialsId) throw fail('credentials_id is missing');
    const codeValue = get('authorization_code');
    if (!codeValue) throw fail('authorization_code is missing');
    const code = store.codes.get(codeValue);
    const now = store.clock.now();
    // delegated to the link service (the guide's actor) or, as bankctl once did, to the app itself
    if (
      !code ||
      code.used ||
      code.expiresAt <= now ||
      (code.clientId !== clientId && code.clientId !== LINK_ACTOR_CLIENT_ID)
    )
      throw fail('authorization_code is not valid (unknown, expired, already used, or issued to another client)');
    if (!code.scopes.includes(UPDATE_CONSENT_SCOPE))
      throw fail(`authorization_code lacks the scope ${UPDATE_CONSENT_SCOPE}`);
    const user = store.users.get(code.userId);
    if (!user) throw fail('the user of this authorization_code no longer exists');
    if (!lookup.owns(store, user, credentialsId))
      throw fail(`the user holds no credentials "${credentialsId.slice(0, 80)}"`);
    return { clientId, redirectUri, credentialsId, code, user, state, market: get('market') };
  }

  handle(EP.link.updateConsent, (req, res) => {
    const c = check(req.query);
    const info = lookup.describe(store, c.credentialsId) ?? {};
    const expiry = consentSessionExpiry(store, c.credentialsId) ?? info.sessionExpiryDate;
    const accounts = [...store.accounts.values()].filter(
      (a) => a.userId === c.user.id && a.credentialsIds.includes(c.credentialsId),
    );
    const hidden = ['client_id', 'redirect_uri', 'credentials_id', 'authorization_code', 'market', 'state']
      .map((k) => [k, req.query.get(k)] as const)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${esc(v!.slice(0, 2048))}">`)
      .join('');
    const ok = page(
      200,
      'Renew your consent',
      `<p>Your bank connection needs a renewed consent so that your accounts keep updating.</p>
<dl><dt>Bank</dt><dd>${esc(info.providerName ?? 'your bank')}</dd>
<dt>Accounts</dt><dd>${accounts.length ? accounts.map((a) => esc(`${a.name} (${a.accountNumber})`)).join('<br>') : 'none yet'}</dd>
<dt>Session expires</dt><dd id="expiry">${expiry ? esc(new Date(expiry).toISOString().slice(0, 10)) : 'expired or unknown'}</dd></dl>
<form method="post" action="${UPDATE_CONSENT_PATH}">${hidden}
<button class="go" type="submit" name="action" value="extend">Extend for ${CONSENT_SESSION_DAYS} days</button>
<button class="stop" type="submit" name="action" value="cancel">Cancel</button></form>`,
    );
    res.send(200, ok.body as string, ok.contentType, ok.headers);
  });

  handle(
    EP.link.updateConsentSubmit,
    async (req: Req) => {
      let form: URLSearchParams;
      try {
        form = await req.form();
      } catch {
        throw page(400, 'Link misconfigured', '<p>The form could not be read.</p>');
      }
      const c = check(form);
      if (form.get('action') === 'cancel')
        throw redirect(c.redirectUri, {
          error: 'USER_CANCELLED',
          message: 'The user cancelled the consent update.',
          state: c.state,
        });
      c.code.used = true;
      const expiresAt = store.clock.now() + CONSENT_SESSION_DAYS * 86_400_000;
      consentSessions(store).expiry[c.credentialsId] = expiresAt;
      lookup.extend?.(store, c.credentialsId, expiresAt);
      throw redirect(c.redirectUri, { credentials_id: c.credentialsId, state: c.state });
    },
    { maxBody: 16 * 1024 },
  );
}
