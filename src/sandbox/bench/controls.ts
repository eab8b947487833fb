// The state controls under /sandbox/ (issue 17): a credentials status, an expired consent, new
// transactions, the clock and a reset. Each answers 400 with a body naming the field for bad input.
import { parseTime } from '../../contract/duration.js';
import { CREDENTIALS_RUN_STATUSES, SETTABLE_CREDENTIALS_STATUSES } from '../../contract/vocabulary.js';
import type { SandboxContext } from '../context.js';
import { asObject, badRequest, envelope, notFound, optString } from '../http.js';
import type { Handler, Req } from '../router.js';
import type { UserRecord } from '../store.js';
import { CredentialsState, ENGINES, type CredentialsEngine, type CredRecord } from '../providers/engine.js';
import type { Script } from '../providers/flow.js';
import { emitRefreshFinished } from '../events-v2.js';
import { checkCode } from '../providers/flow.js';
import { appPayload } from '../providers/third-party.js';
import {
  addTransactions,
  bankAccount,
  checkCategory,
  isDay,
  isDecimal,
  MAX_ADD,
  type AddRequest,
  type ExplicitTransaction,
} from './transactions.js';

const SESSION_MS = 90 * 86_400_000;
/** The statuses that start a real round (answered by a supplement, the app, or the round's end). */
const RUN_TARGETS: readonly string[] = CREDENTIALS_RUN_STATUSES;

const DEFAULT_PAYLOAD: Record<string, string> = {
  AUTHENTICATION_ERROR: 'The bank refused the login; authenticate again.',
  TEMPORARY_ERROR: 'The bank is temporarily unavailable. Please try again later.',
  PERMANENT_ERROR: 'The provider was disabled; these credentials cannot be used again.',
  SESSION_EXPIRED: 'The session at the bank has expired; authenticate again.',
};
const ERRORS: Record<string, CredRecord['detailedError']> = {
  AUTHENTICATION_ERROR: {
    type: 'USER_LOGIN_ERROR',
    displayMessage: 'The bank refused the login.',
    details: { reason: 'USER_LOGIN_ERROR', retryable: false },
  },
  TEMPORARY_ERROR: {
    type: 'PROVIDER_ERROR',
    displayMessage: 'The bank is temporarily unavailable.',
    details: { reason: 'PROVIDER_ERROR', retryable: true },
  },
  PERMANENT_ERROR: {
    type: 'PROVIDER_ERROR',
    displayMessage: 'The provider was disabled.',
    details: { reason: 'PROVIDER_DISABLED', retryable: false },
  },
  SESSION_EXPIRED: {
    type: 'USER_LOGIN_ERROR',
    displayMessage: 'The session at the bank has expired.',
    details: { reason: 'SESSION_EXPIRED', retryable: false },
  },
};

/** The scripts that take a credentials into a waiting status and on to UPDATED when answered. */
function scriptFor(status: string): Script {
  switch (status) {
    case 'AWAITING_SUPPLEMENTAL_INFORMATION':
      return async (f) => {
        const a = await f.ask([
          {
            name: 'otp',
            description: 'One-time code',
            helpText: 'In the sandbox: any 4 to 8 digits except 000000.',
            numeric: true,
            minLength: 4,
            maxLength: 8,
            pattern: '^[0-9]{4,8}$',
            optional: false,
          },
        ]);
        checkCode(f, a.otp, 'one-time code');
      };
    case 'AWAITING_MOBILE_EID_AUTHENTICATION':
      return (f) => f.eid();
    case 'AWAITING_THIRD_PARTY_APP_AUTHENTICATION':
      return async (f) => {
        if (!(await f.thirdParty((state) => appPayload(f.baseUrl, state))))
          f.fail('AUTHENTICATION_ERROR', 'The authentication was cancelled in the app.', 'USER_CANCELLED');
      };
    default:
      // AUTHENTICATING and UPDATING: a person's wait in the bank's app, then on
      return async (f) => {
        f.payload('Authenticating at the bank.');
        await f.wait(f.humanDelay);
      };
  }
}

function engineOf(ctx: SandboxContext): CredentialsEngine {
  const e = ENGINES.get(ctx);
  if (!e) throw envelope(503, 'sandbox.not_ready', 'the credentials engine is not running');
  return e;
}

function credentialsOf(ctx: SandboxContext, req: Req): CredRecord {
  const rec = ctx.store.area('credentials', () => new CredentialsState()).records.get(req.params.id!);
  if (!rec) throw notFound(`no credentials with id "${req.params.id!.slice(0, 64)}"`);
  return rec;
}

/** Resolves once the credentials show `status` (or after ms). */
function reached(ctx: SandboxContext, rec: CredRecord, status: string, ms: number): Promise<void> {
  if (rec.status === status) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref?.();
    const off = ctx.events.subscribe(
      (e) => {
        if (e.content.id === rec.id && e.content.status === status) done();
      },
      (event, userId) => event === 'credentials:update' && userId === rec.userId,
    );
    function done() {
      clearTimeout(timer);
      off();
      resolve();
    }
  });
}

export function setStatus(ctx: SandboxContext): Handler {
  return async (req, res) => {
    const rec = credentialsOf(ctx, req);
    const body = asObject(await req.json(), 'the body');
    const status = optString(body, 'status');
    if (!status || !SETTABLE_CREDENTIALS_STATUSES.includes(status))
      throw badRequest(
        `status must be one of ${SETTABLE_CREDENTIALS_STATUSES.join(', ')}${status === 'DELETED' ? ' (delete credentials with DELETE /api/v1/credentials/{id})' : ''}`,
        { field: 'status' },
      );
    const payload = optString(body, 'payload');
    if (payload !== undefined && payload.length > 1000)
      throw badRequest('payload must be at most 1000 characters', { field: 'payload' });
    const engine = engineOf(ctx);
    engine.cancel(rec);
    const now = ctx.clock.now();
    if (RUN_TARGETS.includes(status)) {
      engine.start(rec, { kind: 'refresh', script: scriptFor(status) });
      await reached(ctx, rec, status, 5000);
      if (payload !== undefined && rec.status === status)
        engine.setStatus(rec, status, { payload, supplementalInformation: rec.supplementalInformation });
    } else if (status === 'CREATED') {
      rec.needsAuth = true;
      rec.detailedError = undefined;
      engine.setStatus(rec, 'CREATED', { payload });
    } else {
      rec.detailedError = ERRORS[status];
      if (status === 'UPDATED') {
        rec.needsAuth = false;
        rec.updated = now;
        if (rec.sessionExpiryDate === null || rec.sessionExpiryDate <= now) rec.sessionExpiryDate = now + SESSION_MS;
      }
      // a later refresh needs the person again; SESSION_EXPIRED is reached by a refresh after expiry
      if (status === 'AUTHENTICATION_ERROR') rec.needsAuth = true;
      if (status === 'SESSION_EXPIRED') {
        rec.needsAuth = false;
        rec.sessionExpiryDate = Math.min(rec.sessionExpiryDate ?? now - 1, now - 1);
      }
      engine.setStatus(rec, status, { payload: payload ?? DEFAULT_PAYLOAD[status] ?? '' });
      emitRefreshFinished(ctx, rec);
    }
    res.json(200, { ...engine.view(rec), ...(rec.detailedError ? { detailedError: rec.detailedError } : {}) });
  };
}

export function expireConsent(ctx: SandboxContext): Handler {
  return async (req, res) => {
    const rec = credentialsOf(ctx, req);
    const body = await req.json({ optional: true });
    if (body !== undefined) asObject(body, 'the body');
    if (rec.status === 'PERMANENT_ERROR')
      throw badRequest('the credentials are in PERMANENT_ERROR: there is no consent to expire', { field: 'id' });
    const engine = engineOf(ctx);
    engine.cancel(rec);
    const now = ctx.clock.now();
    rec.sessionExpiryDate = Math.min(rec.sessionExpiryDate ?? now - 1, now - 1);
    rec.needsAuth = false;
    rec.detailedError = ERRORS.SESSION_EXPIRED;
    engine.setStatus(rec, 'SESSION_EXPIRED', {
      payload: 'The consent expired; renew it on the update-consent page or authenticate again.',
    });
    emitRefreshFinished(ctx, rec);
    res.json(200, {
      credentialsId: rec.id,
      providerName: rec.providerName,
      status: rec.status,
      sessionExpiryDate: rec.sessionExpiryDate,
      detailedError: rec.detailedError,
    });
  };
}

function userOf(ctx: SandboxContext, id: string): UserRecord {
  const u = ctx.store.users.get(id) ?? ctx.store.userByExternalId(id);
  if (!u) throw notFound(`user ${id.slice(0, 64)} not found`);
  return u;
}

function str(
  o: Record<string, unknown>,
  key: string,
  what: string,
  test: (s: string) => boolean,
  hint: string,
): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : v;
  if (typeof s !== 'string' || !test(s)) throw badRequest(`${what} ${hint}`, { field: what });
  return s;
}

function explicit(v: unknown): ExplicitTransaction[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_ADD)
    throw badRequest(`transactions must be a list of 1 to ${MAX_ADD} transactions`, { field: 'transactions' });
  return v.map((t, i) => {
    const at = `transactions[${i}]`;
    const o = asObject(t, at);
    const amount = str(o, 'amount', `${at}.amount`, isDecimal, 'must be a decimal amount such as "-12.50"');
    if (amount === undefined) throw badRequest(`${at}.amount is required`, { field: `${at}.amount` });
    const date = str(o, 'date', `${at}.date`, isDay, 'must be a date YYYY-MM-DD');
    if (date === undefined) throw badRequest(`${at}.date is required`, { field: `${at}.date` });
    const description =
      str(
        o,
        'description',
        `${at}.description`,
        (s) => s.length > 0 && s.length <= 200,
        'must be 1 to 200 characters',
      ) ?? 'Sandbox transaction';
    if (o.pending !== undefined && typeof o.pending !== 'boolean')
      throw badRequest(`${at}.pending must be a boolean`, { field: `${at}.pending` });
    const categoryCode = str(o, 'category', `${at}.category`, (s) => s.length <= 100, 'must be a category code');
    if (categoryCode !== undefined) checkCategory(categoryCode, `${at}.category`);
    return { amount, date, description, pending: o.pending === true, categoryCode };
  });
}

/** The body of POST /sandbox/transactions, checked. */
export function addRequest(body: Record<string, unknown>): AddRequest {
  const userId = str(body, 'userId', 'userId', (s) => s.length > 0 && s.length <= 200, 'must be a user id');
  if (!userId) throw badRequest('userId is required', { field: 'userId' });
  const accountId = str(
    body,
    'accountId',
    'accountId',
    (s) => s.length > 0 && s.length <= 200,
    'must be an account id',
  );
  if (!accountId) throw badRequest('accountId is required', { field: 'accountId' });
  if (body.transactions !== undefined) {
    if (body.count !== undefined) throw badRequest('give either count or transactions, not both', { field: 'count' });
    return { userId, accountId, transactions: explicit(body.transactions) };
  }
  const count = body.count;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_ADD)
    throw badRequest(`count must be a whole number from 1 to ${MAX_ADD} (or give transactions)`, { field: 'count' });
  const from = str(body, 'from', 'from', isDay, 'must be a date YYYY-MM-DD');
  const to = str(body, 'to', 'to', isDay, 'must be a date YYYY-MM-DD');
  if (from && to && from > to) throw badRequest('from must not be after to', { field: 'from' });
  if ((from && !to) || (to && !from)) throw badRequest('give from and to together', { field: from ? 'to' : 'from' });
  const amountMin = str(body, 'amountMin', 'amountMin', isDecimal, 'must be a decimal amount such as "-500.00"');
  const amountMax = str(body, 'amountMax', 'amountMax', isDecimal, 'must be a decimal amount such as "-5.00"');
  if ((amountMin === undefined) !== (amountMax === undefined))
    throw badRequest('give amountMin and amountMax together', {
      field: amountMin === undefined ? 'amountMin' : 'amountMax',
    });
  if (amountMin !== undefined && Number(amountMin) > Number(amountMax))
    throw badRequest('amountMin must not be above amountMax', { field: 'amountMin' });
  if (body.pending !== undefined && typeof body.pending !== 'boolean')
    throw badRequest('pending must be a boolean', { field: 'pending' });
  const seed = str(body, 'seed', 'seed', (s) => s.length <= 200, 'must be a string or a number');
  return { userId, accountId, count, from, to, amountMin, amountMax, pending: body.pending === true, seed };
}

export function addTransactionsHandler(ctx: SandboxContext): Handler {
  return async (req, res) => {
    const r = addRequest(asObject(await req.json(), 'the body'));
    const user = userOf(ctx, r.userId);
    const account = bankAccount(ctx, user, r.accountId);
    res.json(200, addTransactions(ctx, user, account, r));
  };
}

function clockView(ctx: SandboxContext) {
  const now = ctx.clock.now();
  return { now: new Date(now).toISOString(), epochMs: now, offsetMs: ctx.clock.offsetMs };
}

export function clock(ctx: SandboxContext): Handler {
  return (_req, res) => res.json(200, clockView(ctx));
}

const MIN_TIME = Date.UTC(2000, 0, 1);
const MAX_TIME = Date.UTC(2100, 0, 1);

export function setClock(ctx: SandboxContext): Handler {
  return async (req, res) => {
    const body = asObject(await req.json(), 'the body');
    const { advanceMs, time } = body;
    if ((advanceMs === undefined) === (time === undefined))
      throw badRequest('give exactly one of advanceMs (milliseconds forward) and time (ISO 8601)', {
        field: 'advanceMs',
      });
    let target: number;
    if (advanceMs !== undefined) {
      if (typeof advanceMs !== 'number' || !Number.isSafeInteger(advanceMs) || advanceMs < 0)
        throw badRequest(
          'advanceMs must be a whole number of milliseconds, 0 or more (the clock only moves forward with advance; use time to go back)',
          { field: 'advanceMs' },
        );
      target = ctx.clock.now() + advanceMs;
    } else {
      const t = typeof time === 'string' ? parseTime(time) : typeof time === 'number' ? time : undefined;
      if (t === undefined || !Number.isFinite(t))
        throw badRequest('time must be an ISO 8601 date or date-time such as 2026-01-31T12:00:00Z', { field: 'time' });
      target = t;
    }
    if (target < MIN_TIME || target > MAX_TIME)
      throw badRequest('the clock stays between 2000-01-01 and 2100-01-01', {
        field: advanceMs !== undefined ? 'advanceMs' : 'time',
      });
    ctx.clock.set(target);
    res.json(200, clockView(ctx));
  };
}

export function reset(ctx: SandboxContext): Handler {
  return async (req, res) => {
    const body = await req.json({ optional: true });
    const o = body === undefined ? {} : asObject(body, 'the body');
    if (o.keepClients !== undefined && typeof o.keepClients !== 'boolean')
      throw badRequest('keepClients must be a boolean', { field: 'keepClients' });
    const keep = o.keepClients === true;
    const id = ctx.bench!.reset(keep);
    // without keepClients the caller needs the new client to go on: it authenticated with the old one
    res.json(
      200,
      keep ? { reset: true, keepClients: true, clientId: id.clientId } : { reset: true, keepClients: false, ...id },
    );
  };
}
