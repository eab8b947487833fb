// Connectivity v2 consents (Beta in the vendor reference): an app creates a consent for one of its
// users at a provider (mandate payments, VRP sweeping or commercial), the user authorizes it, the
// app reads and revokes it. An authorization walks the same test providers as v1 credentials: it
// creates credentials for the consent's user through the public API, and its state follows theirs
// (AWAITING_INPUT with the bank's redirectUri while the bank waits, SUCCEEDED when they are UPDATED,
// FAILED with the detailedError of an error). The writes need an Idempotency-Key: the same key and
// body answer the first answer again, the same key with another body 422.
import { createHash } from 'node:crypto';
import { EP, expandPath } from '../../contract/index.js';
import { writeJson } from '../../contract/exact-json.js';
import type { SandboxContext } from '../context.js';
import type { MemoryStore } from '../store.js';
import { asObject, badRequest, envelope, optString } from '../http.js';
import type { Req } from '../router.js';
import { providerByName } from '../providers/catalogue.js';
import { credentialsOf } from './credentials-view.js';
import { issueAccessToken } from './oauth.js';
import { selfCall } from '../link/self-call.js';
import { sendJson } from './read-views.js';

export const SERVICE_TYPES = ['MANDATE_PAYMENTS'];
export const SUBTYPES = ['VRP_SWEEPING', 'VRP_COMMERCIAL'];
/** The versions of the templates GET /connectivity/v2/consent-templates lists. */
const TEMPLATE_VERSIONS = ['1.0.0'];
export const PERIOD_TYPES = ['DAY', 'WEEK', 'FORTNIGHT', 'MONTH', 'HALF_YEAR', 'YEAR'];
/** How long a revocation stays REVOKING before it is REVOKED. */
export const REVOKE_MS = 1000;

interface Consent {
  id: string;
  appId: string;
  userId: string;
  providerId: string;
  financialService: { type: string; subtype: string };
  financialServiceParameters: Record<string, unknown>;
  state: 'INITIALIZED' | 'ACTIVE' | 'EXPIRED' | 'REVOKED';
  createdAt: number;
  authorizedAt?: number;
  revokedAt?: number;
  expiresAt?: number;
}

interface Authorization {
  id: string;
  consentId: string;
  createdAt: number;
  appUri?: string;
  callbackUri?: string;
  credentialsId?: string;
  /** The credentials' statusUpdated when this authorization logged in again on them: older statuses are not its own. */
  since?: number;
  revoke?: boolean;
  /**
   * How it ended, once it has (with the detailedError when it FAILED): kept, so a later login on the
   * same credentials cannot rewrite it.
   */
  ended?: { at: number; failure?: Record<string, unknown> };
  canceledAt?: number;
}

class ConsentsV2State {
  consents = new Map<string, Consent>();
  authorizations = new Map<string, Authorization>();
  idempotency = new Map<string, { hash: string; status: number; body: string }>();
}

/**
 * Keys whose first request has not answered yet, with the hash of its body: by store, outside the
 * saved state (a key saved mid-request would be "in progress" for ever after a restart).
 */
const inflightByStore = new WeakMap<MemoryStore, Map<string, string>>();
const inflightOf = (store: MemoryStore) => {
  let m = inflightByStore.get(store);
  if (!m) inflightByStore.set(store, (m = new Map()));
  return m;
};

const stateOf = (store: MemoryStore) => store.area('consentsV2', () => new ConsentsV2State());
const iso = (t: number | undefined) => (t === undefined ? undefined : new Date(t).toISOString());
const dashed = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;

function consentView(c: Consent, now: number): Record<string, unknown> {
  // a consent past its validity is EXPIRED (a revoked one stays REVOKED)
  if (c.expiresAt !== undefined && c.expiresAt <= now && (c.state === 'ACTIVE' || c.state === 'INITIALIZED'))
    c.state = 'EXPIRED';
  return {
    appId: c.appId,
    authorizedAt: iso(c.authorizedAt),
    createdAt: iso(c.createdAt),
    expiresAt: iso(c.expiresAt),
    financialService: c.financialService,
    financialServiceParameters: c.financialServiceParameters,
    id: c.id,
    providerId: c.providerId,
    revokedAt: iso(c.revokedAt),
    state: c.state,
    userId: c.userId,
  };
}

const STATUS_STATE: Record<string, string> = {
  CREATED: 'ONGOING',
  AUTHENTICATING: 'ONGOING',
  UPDATING: 'ONGOING',
  AWAITING_THIRD_PARTY_APP_AUTHENTICATION: 'AWAITING_INPUT',
  AWAITING_MOBILE_BANKID_AUTHENTICATION: 'AWAITING_INPUT',
  AWAITING_MOBILE_EID_AUTHENTICATION: 'AWAITING_INPUT',
  AWAITING_SUPPLEMENTAL_INFORMATION: 'AWAITING_INPUT',
  UPDATED: 'SUCCEEDED',
};

/** The first http(s) URL in the credentials' supplemental information (the bank's login page). */
function redirectUriOf(info: string | null): string | undefined {
  if (!info) return undefined;
  const m = /https?:\/\/[^\s"\\]+/.exec(info);
  return m?.[0];
}

/** The authorization as it stands now; its consent becomes ACTIVE when it has succeeded. */
function authorizationView(store: MemoryStore, a: Authorization): Record<string, unknown> {
  const st = stateOf(store);
  const consent = st.consents.get(a.consentId);
  const now = store.clock.now();
  const out: Record<string, unknown> = { consentId: a.consentId, createdAt: iso(a.createdAt), id: a.id };
  if (a.appUri !== undefined) out.appUri = a.appUri;
  if (a.callbackUri !== undefined) out.callbackUri = a.callbackUri;
  if (a.revoke) {
    out.state = now - a.createdAt >= REVOKE_MS ? 'REVOKED' : 'REVOKING';
    out.succeededAt = iso(a.createdAt);
    return out;
  }
  if (a.canceledAt !== undefined) {
    out.state = 'CANCELED';
    out.canceledAt = iso(a.canceledAt);
    return out;
  }
  // an authorization that ended stays as it ended: a later authorization of the same consent logs in
  // again on the same credentials, and their status then belongs to that one
  if (a.ended) {
    const { at, failure } = a.ended;
    if (failure) Object.assign(out, { state: 'FAILED', failedAt: iso(at), detailedError: failure });
    else Object.assign(out, { state: 'SUCCEEDED', succeededAt: iso(at) });
    return out;
  }
  const rec = a.credentialsId ? credentialsOf(store, a.credentialsId) : undefined;
  const status =
    rec && a.since !== undefined && rec.statusUpdated <= a.since ? 'CREATED' : (rec?.status ?? 'PERMANENT_ERROR');
  const state = STATUS_STATE[status] ?? 'FAILED';
  out.state = state;
  if (state === 'AWAITING_INPUT') {
    const redirectUri = redirectUriOf(rec?.supplementalInformation ?? null);
    out.supplementalInformation = { id: a.id, ...(redirectUri ? { redirectUri } : {}) };
  } else if (state === 'SUCCEEDED') {
    a.ended = { at: rec?.statusUpdated ?? now };
    out.succeededAt = iso(a.ended.at);
    if (consent && consent.state === 'INITIALIZED') {
      consent.state = 'ACTIVE';
      consent.authorizedAt = a.ended.at;
    }
  } else if (state === 'FAILED') {
    const failure = structuredClone<unknown>(
      rec?.detailedError ?? {
        type: 'TINK_SIDE_ERROR',
        displayMessage: rec?.statusPayload || 'The authorization failed.',
        details: { reason: status, retryable: status === 'TEMPORARY_ERROR' },
      },
    ) as Record<string, unknown>;
    a.ended = { at: rec?.statusUpdated ?? now, failure };
    out.failedAt = iso(a.ended.at);
    out.detailedError = failure;
  }
  return out;
}

// ---- validation ----------------------------------------------------------------------------------

function idempotencyKey(req: Req): string {
  const k = req.headers['idempotency-key'];
  const v = Array.isArray(k) ? k[0] : k;
  if (!v || v.length > 255) throw badRequest('the Idempotency-Key header is required (at most 255 characters)');
  return v;
}

/**
 * Runs a write once per key: the same key and body answer as before, another body is a 422. A retry
 * that comes while the first request is still at work is the reference's 409 ("Request retried
 * while the original request is still being processed"): it ran the write a second time (a second
 * login at the bank, answered 400 "cannot authorize without input fields").
 */
async function once(
  store: MemoryStore,
  req: Req,
  res: { send(status: number, body: Buffer, contentType: string): void },
  body: unknown,
  write: () => Promise<{ status: number; body: unknown }> | { status: number; body: unknown },
): Promise<void> {
  const key = `${req.auth?.clientId ?? ''}:${req.auth?.userId ?? ''}:${req.endpoint.id}:${req.path}:${idempotencyKey(req)}`;
  const hash = createHash('sha256')
    .update(writeJson(body ?? null))
    .digest('hex');
  const st = stateOf(store);
  const seen = st.idempotency.get(key);
  if (seen) {
    if (seen.hash !== hash)
      throw envelope(422, 'request.idempotency_key_reused', 'the Idempotency-Key was used with another request body');
    res.send(seen.status, Buffer.from(seen.body), 'application/json');
    return;
  }
  const inflight = inflightOf(store);
  const running = inflight.get(key);
  if (running !== undefined) {
    if (running !== hash)
      throw envelope(422, 'request.idempotency_key_reused', 'the Idempotency-Key was used with another request body');
    throw envelope(
      409,
      'request.in_progress',
      'a request with this Idempotency-Key is still being processed; retry once it has answered',
    );
  }
  inflight.set(key, hash);
  let answer: { status: number; body: unknown };
  try {
    answer = await write();
  } finally {
    inflight.delete(key);
  }
  const text = writeJson(answer.body);
  st.idempotency.set(key, { hash, status: answer.status, body: text });
  res.send(answer.status, Buffer.from(text), 'application/json');
}

function wholeNumber(v: unknown, min: number): boolean {
  const s = v === null || v === undefined ? '' : String(v);
  return /^\d{1,30}$/.test(s) && BigInt(s) >= BigInt(min);
}

function checkAmount(v: unknown, field: string): void {
  const o = asObject(v, field);
  if (typeof o.currency !== 'string' || !/^[A-Z]{3}$/.test(o.currency))
    throw badRequest(`${field}.currency must be an ISO 4217 code`, { field: `${field}.currency` });
  const value = asObject(o.value, `${field}.value`);
  if (!wholeNumber(value.scale, 0)) throw badRequest(`${field}.value.scale must be a whole number from 0`, { field });
  if (!wholeNumber(value.unscaledValue, 1))
    throw badRequest(`${field}.value.unscaledValue must be a whole number from 1`, { field });
}

/** The template's validFrom/validTo format, yyyy-MM-dd'T'HH:mm:ss.SSS'Z'. */
const VALIDITY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * validFrom or validTo as epoch milliseconds: the template's string format and a real UTC time.
 * Anything else was taken as no limit at all (`"garbage"`, a number), or moved to another day
 * (`2026-02-30` was 2 March), and the consent made without the end its app asked for.
 */
function validityTime(v: unknown, k: 'validFrom' | 'validTo'): number | undefined {
  if (v === undefined || v === null) return undefined;
  const t = typeof v === 'string' && VALIDITY.test(v) ? Date.parse(v) : NaN;
  // a time that does not write back as it came was rolled over (30 February, 24:00)
  if (!Number.isFinite(t) || new Date(t).toISOString() !== v)
    throw badRequest(
      `controlParameters.${k} must be a UTC time yyyy-MM-ddTHH:mm:ss.SSSZ (the template's format), got ${JSON.stringify(v).slice(0, 60)}`,
      { field: `controlParameters.${k}` },
    );
  return t;
}

/** The template's account identification schemes (its AccountType is the constant SORT_CODE). */
const ACCOUNT_TYPES = ['SORT_CODE'];

/**
 * payeeAccount or payerAccount as the template has them: the name (`name`, or `holderName` of the
 * payer) 1 to 35 characters (code points, as JSON Schema's maxLength counts them), a number, the type
 * SORT_CODE (its default when left out). A 40-character name, an IBAN type or a payer without its
 * holder's name made a consent the template refuses.
 */
function checkAccount(v: unknown, field: 'payeeAccount' | 'payerAccount', nameKey: 'name' | 'holderName'): void {
  const o = asObject(v, `userParameters.${field}`);
  const name = o[nameKey];
  // counted as JSON Schema's maxLength counts: code points (35 emoji are 35, not 70 UTF-16 units)
  const length = typeof name === 'string' ? [...name].length : 0;
  if (typeof name !== 'string' || length < 1 || length > 35)
    throw badRequest(`${field}.${nameKey} is required: a string of 1 to 35 characters`, {
      field: `${field}.${nameKey}`,
    });
  if (typeof o.number !== 'string' || o.number === '')
    throw badRequest(`${field}.number is required`, { field: `${field}.number` });
  if (o.type !== undefined && (typeof o.type !== 'string' || !ACCOUNT_TYPES.includes(o.type)))
    throw badRequest(`${field}.type must be ${ACCOUNT_TYPES.join(', ')}`, { field: `${field}.type` });
}

/** The template's required parts of userParameters (VRP). */
function checkParameters(p: Record<string, unknown>): void {
  const up = asObject(p.userParameters, 'financialServiceParameters.userParameters');
  const cp = asObject(up.controlParameters, 'userParameters.controlParameters');
  checkAmount(cp.maximumIndividualAmount, 'controlParameters.maximumIndividualAmount');
  if (!Array.isArray(cp.periodicLimits) || cp.periodicLimits.length === 0)
    throw badRequest('controlParameters.periodicLimits must list at least one limit', { field: 'periodicLimits' });
  cp.periodicLimits.forEach((l, i) => {
    const o = asObject(l, `periodicLimits[${i}]`);
    checkAmount(o.amount, `periodicLimits[${i}].amount`);
    if (o.periodAlignment !== 'MANDATE')
      throw badRequest(`periodicLimits[${i}].periodAlignment must be MANDATE`, { field: 'periodAlignment' });
    if (typeof o.periodType !== 'string' || !PERIOD_TYPES.includes(o.periodType))
      throw badRequest(`periodicLimits[${i}].periodType must be one of ${PERIOD_TYPES.join(', ')}`, {
        field: 'periodType',
      });
  });
  const from = validityTime(cp.validFrom, 'validFrom');
  const to = validityTime(cp.validTo, 'validTo');
  if (from !== undefined && to !== undefined && from > to)
    throw badRequest(`controlParameters.validFrom (${String(cp.validFrom)}) is after validTo (${String(cp.validTo)})`, {
      field: 'controlParameters.validFrom',
    });
  checkAccount(up.payeeAccount, 'payeeAccount', 'name');
  if (up.payerAccount !== undefined) checkAccount(up.payerAccount, 'payerAccount', 'holderName');
  if (up.merchantId !== undefined && typeof up.merchantId !== 'string')
    throw badRequest('userParameters.merchantId must be a string', { field: 'userParameters.merchantId' });
  // the template requires it, the reference's own create example leaves it out: checked when sent
  if (up.remittanceInformation !== undefined) {
    const ri = asObject(up.remittanceInformation, 'userParameters.remittanceInformation');
    for (const [k, max, required] of [
      ['reference', 18, true],
      ['unstructured', 140, false],
    ] as const) {
      const v = ri[k];
      if (v === undefined && !required) continue;
      // code points, as JSON Schema's maxLength counts them (18 emoji are 18, not 36 UTF-16 units)
      const length = typeof v === 'string' ? [...v].length : 0;
      if (typeof v !== 'string' || length < 1 || length > max)
        throw badRequest(`remittanceInformation.${k} must be a string of 1 to ${max} characters`, {
          field: `remittanceInformation.${k}`,
        });
    }
  }
}

function consentFor(store: MemoryStore, req: Req): Consent {
  const c = stateOf(store).consents.get(req.params.consentId!);
  const visible = c && (req.auth?.kind === 'client' ? c.appId === req.auth.clientId : req.auth?.userId === c.userId);
  if (!c || !visible)
    throw envelope(404, 'consent.not_found', `consent "${req.params.consentId!.slice(0, 80)}" not found`);
  return c;
}

/** page_size 1..100 (default 10) and an opaque page_token over a sorted list. */
function page<T>(req: Req, all: T[]): { items: T[]; nextPageToken: string } {
  const sizeText = req.query.get('page_size');
  const size = sizeText === null || sizeText === '' ? 10 : Number(sizeText);
  if (!/^\d{1,3}$/.test(sizeText ?? '10') || size < 1 || size > 100)
    throw badRequest('page_size must be a whole number from 1 to 100', { field: 'page_size' });
  let start = 0;
  const token = req.query.get('page_token');
  if (token) {
    const m = /^p(\d{1,7})$/.exec(Buffer.from(token, 'base64').toString('utf8'));
    if (!m || Number(m[1]) > all.length)
      throw badRequest('page_token is not valid: pass the nextPageToken unchanged', { field: 'page_token' });
    start = Number(m[1]);
  }
  const end = Math.min(start + size, all.length);
  return {
    items: all.slice(start, end),
    nextPageToken: end < all.length ? Buffer.from(`p${end}`).toString('base64') : '',
  };
}

function template(subtype: string): Record<string, unknown> {
  const amount = {
    properties: {
      currency: { type: 'string', description: 'The currency code which follows ISO-4217 standard.' },
      value: {
        properties: { scale: { minimum: 0, type: 'integer' }, unscaledValue: { minimum: 1, type: 'integer' } },
        required: ['scale', 'unscaledValue'],
        type: 'object',
      },
    },
    required: ['currency', 'value'],
    type: 'object',
  };
  return {
    deprecated: false,
    schema: {
      $defs: { AccountType: { const: 'SORT_CODE', type: 'string' }, CurrencyDenominatedAmount: amount },
      properties: {
        controlParameters: {
          properties: {
            maximumIndividualAmount: { $ref: '#/$defs/CurrencyDenominatedAmount' },
            periodicLimits: {
              items: {
                properties: {
                  amount: { $ref: '#/$defs/CurrencyDenominatedAmount' },
                  periodAlignment: { const: 'MANDATE', type: 'string' },
                  periodType: { enum: PERIOD_TYPES, type: 'string' },
                },
                required: ['amount', 'periodAlignment', 'periodType'],
                type: 'object',
              },
              minItems: 1,
              type: 'array',
            },
            validFrom: { format: "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", type: 'string' },
            validTo: { format: "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", type: 'string' },
          },
          required: ['maximumIndividualAmount', 'periodicLimits'],
          type: 'object',
        },
        merchantId: { type: 'string' },
        payeeAccount: {
          properties: {
            name: { maxLength: 35, minLength: 1, type: 'string' },
            number: { type: 'string' },
            type: { $ref: '#/$defs/AccountType', const: 'SORT_CODE', default: 'SORT_CODE' },
          },
          required: ['name', 'number', 'type'],
          type: 'object',
        },
        payerAccount: {
          properties: {
            holderName: { maxLength: 35, minLength: 1, type: 'string' },
            number: { type: 'string' },
            type: { $ref: '#/$defs/AccountType', const: 'SORT_CODE', default: 'SORT_CODE' },
          },
          required: ['holderName', 'number', 'type'],
          type: 'object',
        },
        remittanceInformation: {
          description: 'Information supplied to enable the matching of an entry.',
          properties: {
            reference: { maxLength: 18, minLength: 1, type: 'string' },
            unstructured: { maxLength: 140, minLength: 1, type: 'string' },
          },
          required: ['reference'],
          type: 'object',
        },
      },
      required: ['controlParameters', 'payeeAccount', 'remittanceInformation'],
      type: 'object',
    },
    subtype,
    supportedUntil: '2030-12-31T23:59:59.999Z',
    type: 'MANDATE_PAYMENTS',
    version: TEMPLATE_VERSIONS.at(-1)!,
  };
}

// ---- the area ------------------------------------------------------------------------------------

export function registerConsentsV2(ctx: SandboxContext): void {
  registerConsents(ctx);
  registerAuthorizations(ctx);
}

/** Consents: create, list, read, revoke. */
function registerConsents(ctx: SandboxContext): void {
  const { store, handle } = ctx;
  store.onUserDeleted((userId) => {
    const st = stateOf(store);
    for (const [id, c] of st.consents) if (c.userId === userId) st.consents.delete(id);
  });

  handle(
    EP.consentsV2.create,
    async (req, res) => {
      const body = asObject(await req.json());
      await once(store, req, res, body, () => {
        const providerId = optString(body, 'providerId');
        if (!providerId) throw badRequest('providerId is required', { field: 'providerId' });
        if (!providerByName(providerId))
          throw badRequest(`unknown provider "${providerId.slice(0, 80)}"`, { field: 'providerId' });
        const userId = optString(body, 'userId');
        const user = userId ? store.users.get(userId) : undefined;
        if (!user || user.clientId !== req.auth?.clientId)
          throw badRequest('userId must name a user of this app', { field: 'userId' });
        const fs = asObject(body.financialService, 'financialService');
        if (typeof fs.type !== 'string' || !SERVICE_TYPES.includes(fs.type))
          throw badRequest(`financialService.type must be one of ${SERVICE_TYPES.join(', ')}`, {
            field: 'financialService.type',
          });
        if (typeof fs.subtype !== 'string' || !SUBTYPES.includes(fs.subtype))
          throw badRequest(`financialService.subtype must be one of ${SUBTYPES.join(', ')}`, {
            field: 'financialService.subtype',
          });
        const params = asObject(body.financialServiceParameters, 'financialServiceParameters');
        // the reference: "Semantic version of the template for the given type and subtype"; left
        // out, the current one
        if (params.version !== undefined && !TEMPLATE_VERSIONS.includes(params.version as string))
          throw badRequest(
            `financialServiceParameters.version ${JSON.stringify(params.version).slice(0, 40)} is not a template version of ${fs.subtype} (${TEMPLATE_VERSIONS.join(', ')})`,
            { field: 'financialServiceParameters.version' },
          );
        checkParameters(params);
        const now = store.clock.now();
        const up = params.userParameters as { controlParameters: { validTo?: unknown } };
        const validTo =
          typeof up.controlParameters.validTo === 'string' ? Date.parse(up.controlParameters.validTo) : NaN;
        const c: Consent = {
          id: dashed(store.ids.next()),
          appId: req.auth!.clientId!,
          userId: user.id,
          providerId,
          financialService: { subtype: fs.subtype, type: fs.type },
          financialServiceParameters: { version: TEMPLATE_VERSIONS.at(-1)!, ...params },
          state: 'INITIALIZED',
          createdAt: now,
          expiresAt: Number.isFinite(validTo) ? validTo : undefined,
        };
        stateOf(store).consents.set(c.id, c);
        return { status: 201, body: { consent: consentView(c, store.clock.now()) } };
      });
    },
    { maxBody: 64 * 1024 },
  );

  handle(EP.consentsV2.list, (req, res) => {
    const all = [...stateOf(store).consents.values()]
      .filter((c) => (req.auth?.kind === 'client' ? c.appId === req.auth.clientId : c.userId === req.auth?.userId))
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    const p = page(req, all);
    sendJson(res, 200, {
      consents: p.items.map((c) => consentView(c, store.clock.now())),
      nextPageToken: p.nextPageToken,
    });
  });

  handle(EP.consentsV2.get, (req, res) => {
    const c = consentFor(store, req);
    // reading the latest authorization brings the consent up to date
    for (const a of stateOf(store).authorizations.values()) if (a.consentId === c.id) authorizationView(store, a);
    // GetConsentResponse: the consent under `consent`, as create and revoke answer it (the reference)
    sendJson(res, 200, { consent: consentView(c, store.clock.now()) });
  });

  handle(EP.consentsV2.revoke, async (req, res) => {
    await once(store, req, res, null, () => {
      const c = consentFor(store, req);
      if (c.state === 'REVOKED') throw envelope(409, 'consent.revoked', `consent "${c.id}" is already revoked`);
      const now = store.clock.now();
      const st = stateOf(store);
      for (const a of st.authorizations.values())
        if (
          a.consentId === c.id &&
          !a.revoke &&
          authorizationView(store, a).state !== 'SUCCEEDED' &&
          authorizationView(store, a).state !== 'FAILED'
        )
          a.canceledAt = now;
      c.state = 'REVOKED';
      c.revokedAt = now;
      const a: Authorization = { id: dashed(store.ids.next()), consentId: c.id, createdAt: now, revoke: true };
      st.authorizations.set(a.id, a);
      return {
        status: 202,
        body: { authorization: authorizationView(store, a), consent: consentView(c, store.clock.now()) },
      };
    });
  });
}

/** Templates, authorizations and the relayed callback. */
function registerAuthorizations(ctx: SandboxContext): void {
  const { store, handle } = ctx;
  handle(EP.consentsV2.template, (req, res) => {
    const providerId = req.params.providerId!;
    if (!providerByName(providerId))
      throw envelope(404, 'provider.not_found', `provider "${providerId.slice(0, 80)}" not found`);
    const type = req.query.get('type');
    const subType = req.query.get('subType');
    if (type && !SERVICE_TYPES.includes(type))
      throw badRequest(`type must be one of ${SERVICE_TYPES.join(', ')}`, { field: 'type' });
    if (subType && !SUBTYPES.includes(subType))
      throw badRequest(`subType must be one of ${SUBTYPES.join(', ')}`, { field: 'subType' });
    sendJson(res, 200, { templates: SUBTYPES.filter((s) => !subType || s === subType).map(template) });
  });

  handle(
    EP.consentsV2.authorize,
    async (req, res) => {
      const body = asObject((await req.json({ optional: true })) ?? {});
      await once(store, req, res, body, async () => {
        const c = consentFor(store, req);
        if (c.state !== 'INITIALIZED')
          throw envelope(
            409,
            'consent.not_initialized',
            `consent "${c.id}" is ${c.state}; only an INITIALIZED consent is authorized`,
          );
        const st = stateOf(store);
        for (const a of st.authorizations.values())
          if (a.consentId === c.id && ['ONGOING', 'AWAITING_INPUT'].includes(String(authorizationView(store, a).state)))
            throw envelope(409, 'authorization.in_progress', `authorization "${a.id}" of this consent is in progress`);
        const appUri = optString(body, 'appUri');
        const callbackUri = optString(body, 'callbackUri');
        const { credentialsId, since } = await connect(ctx, c, { appUri, callbackUri });
        const a: Authorization = {
          id: dashed(store.ids.next()),
          consentId: c.id,
          createdAt: store.clock.now(),
          appUri,
          callbackUri,
          credentialsId,
          since,
        };
        st.authorizations.set(a.id, a);
        return { status: 202, body: { authorization: authorizationView(store, a) } };
      });
    },
    { maxBody: 16 * 1024 },
  );

  handle(EP.consentsV2.authorizations, (req, res) => {
    const c = consentFor(store, req);
    const all = [...stateOf(store).authorizations.values()]
      .filter((a) => a.consentId === c.id)
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    const p = page(req, all);
    sendJson(res, 200, {
      authorizations: p.items.map((a) => authorizationView(store, a)),
      nextPageToken: p.nextPageToken,
    });
  });

  handle(EP.consentsV2.authorization, (req, res) => {
    const c = consentFor(store, req);
    const a = stateOf(store).authorizations.get(req.params.authorizationId!);
    if (!a || a.consentId !== c.id)
      throw envelope(
        404,
        'authorization.not_found',
        `authorization "${req.params.authorizationId!.slice(0, 80)}" not found`,
      );
    sendJson(res, 200, { authorization: authorizationView(store, a) });
  });

  handle(
    EP.consentsV2.relayCallback,
    async (req, res) => {
      const body = asObject(await req.json());
      const state = optString(body, 'state');
      if (!state) throw badRequest('state is required', { field: 'state' });
      const parameters = body.parameters === undefined ? {} : asObject(body.parameters, 'parameters');
      const r = await selfCall(ctx.baseUrl(), 'POST', EP.credentials.relayedCallback.path, '', 1, {
        state,
        parameters,
      });
      if (r.status !== 200) throw badRequest('unknown or expired state', { field: 'state' });
      res.empty(204);
    },
    { maxBody: 16 * 1024 },
  );
}

/** Credentials for the consent's user at its provider, made through the public API as an app would. */
async function connect(
  ctx: SandboxContext,
  c: Consent,
  o: { appUri?: string; callbackUri?: string },
): Promise<{ credentialsId: string; since?: number }> {
  const { token } = issueAccessToken(
    ctx.store,
    'user',
    c.appId,
    ['credentials:write', 'credentials:refresh'],
    c.userId,
  );
  try {
    const uris = {
      ...(o.appUri ? { appUri: o.appUri } : {}),
      ...(o.callbackUri ? { callbackUri: o.callbackUri } : {}),
    };
    const r = await selfCall(ctx.baseUrl(), 'POST', expandPath(EP.credentials.create, {}), token, 1, {
      providerName: c.providerId,
      // the person at the bank's page is the test bank's test user (the redirect page approves or cancels)
      fields: providerByName(c.providerId)?.fields.some((f) => f.name === 'username') ? { username: 'test-user' } : {},
      ...uris,
    });
    const b = r.body as { id?: unknown; errorMessage?: unknown; message?: unknown; errorCode?: unknown } | null;
    // a later consent of the same user at the same bank logs in again on the credentials an earlier one made
    if (r.status === 409 && b?.errorCode === 'credentials.duplicate' && typeof b.id === 'string') {
      const since = credentialsOf(ctx.store, b.id)?.statusUpdated;
      const again = await selfCall(
        ctx.baseUrl(),
        'POST',
        expandPath(EP.credentials.authenticate, { id: b.id }),
        token,
        1,
        uris,
      );
      if (again.status >= 200 && again.status < 300) return { credentialsId: b.id, since };
    }
    if (r.status !== 200 || typeof b?.id !== 'string') {
      const why =
        typeof b?.errorMessage === 'string' ? b.errorMessage : typeof b?.message === 'string' ? b.message : '';
      throw badRequest(
        `provider "${c.providerId}" cannot authorize without input fields${why ? ` (${why.slice(0, 200)})` : ''}; the sandbox walks redirect, decoupled and app providers`,
        { field: 'providerId' },
      );
    }
    return { credentialsId: b.id };
  } finally {
    ctx.store.tokens.delete(token);
  }
}
