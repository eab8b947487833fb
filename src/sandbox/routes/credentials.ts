// Credentials (spec 4.4), provider consents (spec 2.5 / 4.6), the relayed third-party callback,
// and the test bank's login page that third-party and redirect links point at.
import { EP } from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { asObject, badRequest, envelope, HttpFailure, notFound, optString } from '../http.js';
import { type Handler, type Req, type RouteRow, handleAll } from '../router.js';
import type { UserRecord } from '../store.js';
/** The default registered redirect URI (server.ts); kept here to avoid an import cycle. */
const DEFAULT_REDIRECT_URI = 'http://localhost:3000/callback';
import { providerByName, type ProviderDef } from '../providers/catalogue.js';
import { isRefreshItem, REFRESH_ITEMS } from '../../contract/vocabulary.js';
import { CredentialsEngine, type CredRecord } from '../providers/engine.js';

const MAX_FIELD = 1024;

function stringMap(v: unknown, what: string): Record<string, string> {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw badRequest(`${what} must be an object of strings`, { field: what });
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (typeof val !== 'string')
      throw badRequest(`${what}.${k.slice(0, 60)} must be a string`, { field: `${what}.${k.slice(0, 60)}` });
    if (val.length > MAX_FIELD || k.length > 200)
      throw badRequest(`${what}.${k.slice(0, 60)} is too long`, { field: `${what}.${k.slice(0, 60)}` });
    out[k] = val;
  }
  return out;
}

function validateFields(p: ProviderDef, fields: Record<string, string>): void {
  const known = new Set(p.fields.map((f) => f.name));
  const unknown = Object.keys(fields).filter((k) => !known.has(k));
  if (unknown.length > 0)
    throw badRequest(
      `unknown field ${unknown.map((u) => `"${u.slice(0, 60)}"`).join(', ')} for provider ${p.name}; it takes ${[...known].join(', ')}`,
      { field: 'fields' },
    );
  for (const f of p.fields) {
    const v = fields[f.name];
    if (v === undefined || v === '') {
      if (!f.optional)
        throw badRequest(`fields.${f.name} (${f.description}) is required`, { field: `fields.${f.name}` });
      continue;
    }
    if (f.minLength !== undefined && v.length < f.minLength)
      throw badRequest(`fields.${f.name} must be at least ${f.minLength} characters`, { field: `fields.${f.name}` });
    if (f.maxLength !== undefined && v.length > f.maxLength)
      throw badRequest(`fields.${f.name} must be at most ${f.maxLength} characters`, { field: `fields.${f.name}` });
    if (f.numeric && !/^\d+$/.test(v))
      throw badRequest(`fields.${f.name} must be digits only`, { field: `fields.${f.name}` });
    if (f.pattern && !new RegExp(`^(?:${f.pattern})$`).test(v))
      throw badRequest(f.patternError ?? `fields.${f.name} has the wrong format`, { field: `fields.${f.name}` });
  }
}

function queryBool(req: Req, name: string): boolean | undefined {
  const v = req.query.get(name);
  if (v === null || v === '') return undefined;
  if (v !== 'true' && v !== 'false') throw badRequest(`${name} must be true or false`, { field: name });
  return v === 'true';
}

function queryItems(req: Req): string[] | undefined {
  const items = req.query
    .getAll('items')
    .flatMap((i) => i.split(','))
    .filter(Boolean);
  if (items.length === 0) return undefined;
  const bad = items.filter((i) => !isRefreshItem(i));
  if (bad.length > 0)
    throw badRequest(`unknown items ${bad.map((b) => b.slice(0, 40)).join(', ')}; one of ${REFRESH_ITEMS.join(', ')}`, {
      field: 'items',
    });
  return items;
}

function sameFields(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

/** What the credentials handlers share: the engine that runs each connection, and the checks every call makes. */
interface CredentialsArea {
  ctx: SandboxContext;
  store: SandboxContext['store'];
  engine: CredentialsEngine;
  records: () => Map<string, CredRecord>;
  /** The caller's credentials of the path (404 for another user's). */
  own(req: Req): { user: UserRecord; rec: CredRecord };
  duplicateOf(
    userId: string,
    providerName: string,
    fields: Record<string, string>,
    except?: string,
  ): CredRecord | undefined;
  /** 409 while another request runs on these credentials. */
  busy(rec: CredRecord): void;
}

function credentialsArea(ctx: SandboxContext): CredentialsArea {
  const { store } = ctx;
  const engine = new CredentialsEngine(ctx);
  const records = () => engine.state.records;

  store.onUserDeleted((userId) => {
    for (const [id, rec] of records()) {
      if (rec.userId !== userId) continue;
      engine.cancel(rec);
      records().delete(id);
    }
  });

  const own = (req: Req): { user: UserRecord; rec: CredRecord } => {
    const user = req.user();
    const rec = records().get(req.params.id!);
    if (!rec || rec.userId !== user.id) throw notFound(`no credentials with id "${req.params.id!.slice(0, 64)}"`);
    return { user, rec };
  };
  const duplicateOf = (userId: string, providerName: string, fields: Record<string, string>, except?: string) =>
    [...records().values()].find(
      (r) => r.userId === userId && r.id !== except && r.providerName === providerName && sameFields(r.fields, fields),
    );
  const busy = (rec: CredRecord) => {
    if (engine.inProgress(rec))
      throw envelope(
        409,
        'credentials.in_progress',
        `another request is in progress on credentials ${rec.id} (status ${rec.status})`,
      );
  };
  return { ctx, store, engine, records, own, duplicateOf, busy };
}

function createCredentials({ ctx, store, engine, records, duplicateOf }: CredentialsArea): Handler {
  return async (req, res) => {
    const user = req.user();
    const body = asObject(await req.json());
    const providerName = optString(body, 'providerName');
    if (!providerName) throw badRequest('providerName is required', { field: 'providerName' });
    if (body.fields === undefined) throw badRequest('fields is required', { field: 'fields' });
    const fields = stringMap(body.fields, 'fields');
    const appUri = optString(body, 'appUri');
    const callbackUri = optString(body, 'callbackUri');
    if (body.triggerRefresh !== undefined && typeof body.triggerRefresh !== 'boolean')
      throw badRequest('triggerRefresh must be a boolean', { field: 'triggerRefresh' });
    const items = queryItems(req);
    const optIn = queryBool(req, 'optIn');
    const provider = providerByName(providerName);
    if (!provider) throw notFound(`no provider named "${providerName.slice(0, 100)}"`);
    validateFields(provider, fields);
    const dup = duplicateOf(user.id, providerName, fields);
    if (dup) {
      throw new HttpFailure(409, {
        ...engine.view(dup),
        errorMessage: `credentials for ${providerName} with the same field values exist: ${dup.id}`,
        errorCode: 'credentials.duplicate',
      });
    }
    const now = ctx.clock.now();
    const rec: CredRecord = {
      id: store.ids.next(),
      userId: user.id,
      providerName,
      type: provider.credentialsType,
      fields,
      status: 'CREATED',
      statusUpdated: now,
      statusPayload: '',
      updated: null,
      supplementalInformation: null,
      sessionExpiryDate: null,
      appUri,
      callbackUri,
      accountIds: [],
      needsAuth: true,
      created: now,
    };
    records().set(rec.id, rec);
    engine.emitCreate(rec);
    if (body.triggerRefresh !== false) engine.start(rec, { kind: 'refresh', items, optIn });
    res.json(200, engine.view(rec));
  };
}

function listCredentials({ engine, records }: CredentialsArea): Handler {
  return (req, res) => {
    const user = req.user();
    const credentials = [...records().values()].filter((r) => r.userId === user.id).map((r) => engine.view(r));
    res.json(200, { credentials });
  };
}

function getCredentials({ engine, own }: CredentialsArea): Handler {
  return (req, res) => {
    res.json(200, engine.view(own(req).rec));
  };
}

function updateCredentials({ engine, own, duplicateOf, busy }: CredentialsArea): Handler {
  return async (req, res) => {
    const { user, rec } = own(req);
    const body = asObject(await req.json());
    const providerName = optString(body, 'providerName');
    if (providerName !== undefined && providerName !== rec.providerName)
      throw badRequest(`providerName cannot change (the credentials belong to ${rec.providerName})`, {
        field: 'providerName',
      });
    const given = body.fields === undefined ? {} : stringMap(body.fields, 'fields');
    const provider = providerByName(rec.providerName);
    if (!provider) throw notFound(`no provider named "${rec.providerName}"`);
    const fields = { ...rec.fields, ...given };
    validateFields(provider, fields);
    const appUri = optString(body, 'appUri');
    const callbackUri = optString(body, 'callbackUri');
    notFinal(rec, 'updated');
    busy(rec);
    const dup = duplicateOf(user.id, rec.providerName, fields, rec.id);
    if (dup)
      throw new HttpFailure(409, {
        ...engine.view(dup),
        errorMessage: `credentials for ${rec.providerName} with the same field values exist: ${dup.id}`,
        errorCode: 'credentials.duplicate',
      });
    rec.fields = fields;
    if (appUri !== undefined) rec.appUri = appUri;
    if (callbackUri !== undefined) rec.callbackUri = callbackUri;
    rec.needsAuth = true;
    engine.setStatus(rec, 'CREATED');
    engine.start(rec, { kind: 'refresh' });
    res.json(200, engine.view(rec));
  };
}

function deleteCredentials({ ctx, engine, records, own }: CredentialsArea): Handler {
  return (req, res) => {
    const { rec } = own(req);
    engine.cancel(rec);
    records().delete(rec.id);
    engine.setStatus(rec, 'DELETED');
    // partly asynchronous, like the service: the data goes a moment later
    ctx.setTimeout(() => engine.removeData(rec.userId, rec.id), 0);
    res.empty(204);
  };
}

function refreshCredentials({ store, engine, records, own, busy }: CredentialsArea): Handler {
  return async (req, res) => {
    let rec: CredRecord | undefined;
    if (req.auth?.kind === 'client') {
      rec = records().get(req.params.id!);
      const owner = rec ? store.users.get(rec.userId) : undefined;
      if (!rec || (owner?.clientId !== undefined && owner.clientId !== req.auth.clientId)) rec = undefined;
    } else {
      rec = own(req).rec;
    }
    if (!rec) throw notFound(`no credentials with id "${req.params.id!.slice(0, 64)}"`);
    const body = await req.json({ optional: true });
    if (body !== undefined) asObject(body);
    const items = queryItems(req);
    const optIn = queryBool(req, 'optIn');
    const authenticate = queryBool(req, 'authenticate');
    notFinal(rec, 'refreshed');
    busy(rec);
    engine.start(rec, { kind: 'refresh', items, optIn, authenticate });
    res.empty(204);
  };
}

/**
 * PERMANENT_ERROR is final: the provider was disabled by the service and the credentials cannot be
 * used again (reference/credentials-status-notes.md lists no way out of it); they can be deleted.
 */
function notFinal(rec: { status: string }, what: string): void {
  if (rec.status === 'PERMANENT_ERROR')
    throw badRequest(`the credentials are in PERMANENT_ERROR and cannot be ${what}`);
}

function authenticateCredentials({ engine, own, busy }: CredentialsArea): Handler {
  return async (req, res) => {
    const { rec } = own(req);
    const body = await req.json({ optional: true });
    if (body !== undefined) asObject(body);
    notFinal(rec, 'authenticated');
    busy(rec);
    engine.start(rec, { kind: 'authenticate' });
    res.empty(204);
  };
}

function supplementInformation({ engine, own }: CredentialsArea): Handler {
  return async (req, res) => {
    const { rec } = own(req);
    const body = asObject(await req.json());
    if (body.information === undefined || body.information === null)
      throw badRequest('information is required', { field: 'information' });
    const information = stringMap(body.information, 'information');
    const problem = engine.supplement(rec, information);
    if (problem) throw badRequest(problem, { field: 'information' });
    res.empty(204);
  };
}

function qrCode({ engine, own }: CredentialsArea): Handler {
  return async (req, res) => {
    const { rec } = own(req);
    const token = engine.eidToken(rec);
    if (!token) throw notFound(`no autostart token for credentials ${rec.id} (status ${rec.status})`);
    const { default: QRCode } = await import('qrcode');
    const dataUrl = await QRCode.toDataURL(`bankid:///?autostarttoken=${token}&redirect=null`, {
      errorCorrectionLevel: 'M',
      margin: 2,
      scale: 6,
    });
    res.text(200, dataUrl, 'text/html; charset=utf-8');
  };
}

function relayedCallback({ engine }: CredentialsArea): Handler {
  return async (req, res) => {
    const body = asObject(await req.json());
    const state = optString(body, 'state');
    if (!state) throw badRequest('state is required', { field: 'state' });
    if (body.parameters === undefined) throw badRequest('parameters is required', { field: 'parameters' });
    const parameters = stringMap(body.parameters, 'parameters');
    const cancelled = parameters.error !== undefined;
    const rec = engine.finishApp(state, !cancelled);
    if (!rec) throw badRequest('unknown or expired state', { field: 'state' });
    res.json(200, { appUri: rec.appUri ?? DEFAULT_REDIRECT_URI });
  };
}

/** The test bank's page: what the third-party and redirect links open. Opening it signs in. */
function testBankPage({ engine }: CredentialsArea): Handler {
  return (req, res) => {
    const state = req.query.get('state') ?? '';
    const cancel = req.query.get('cancel') === '1';
    const rec = state ? engine.finishApp(state, !cancel) : undefined;
    if (!rec) {
      res.text(400, page('Test Bank', 'This login link is unknown or has expired.'), 'text/html; charset=utf-8');
      return;
    }
    res.text(
      200,
      page(
        'Test Bank',
        cancel
          ? 'You cancelled the login. You can close this window.'
          : 'You are logged in. You can close this window and return to the app.',
      ),
      'text/html; charset=utf-8',
    );
  };
}

function listConsents({ store, records }: CredentialsArea): Handler {
  return (req, res) => {
    const user = req.user();
    const providerConsents = [...records().values()]
      .filter((r) => r.userId === user.id)
      .map((r) => ({
        accountIds: r.accountIds.filter((a) => store.accounts.has(a)),
        credentialsId: r.id,
        providerName: r.providerName,
        status: r.status,
        statusUpdated: r.statusUpdated,
        sessionExpiryDate: r.sessionExpiryDate,
        ...(r.detailedError && (r.status.endsWith('_ERROR') || r.status === 'SESSION_EXPIRED')
          ? { detailedError: r.detailedError }
          : {}),
      }));
    res.json(200, { providerConsents });
  };
}

const ROUTES: Array<RouteRow<CredentialsArea>> = [
  [EP.credentials.create, createCredentials],
  [EP.credentials.list, listCredentials],
  [EP.credentials.get, getCredentials],
  [EP.credentials.update, updateCredentials],
  [EP.credentials.delete, deleteCredentials],
  [EP.credentials.refresh, refreshCredentials],
  [EP.credentials.authenticate, authenticateCredentials],
  [EP.credentials.supplement, supplementInformation],
  [EP.credentials.qr, qrCode],
  [EP.credentials.relayedCallback, relayedCallback],
  [EP.sandbox.testBankAuthorize, testBankPage],
  [EP.consents.list, listConsents],
];

export function registerCredentials(ctx: SandboxContext): void {
  handleAll(ctx.handle, credentialsArea(ctx), ROUTES);
}

function page(title: string, message: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${message}</p></body></html>`;
}
