// Accounts (spec 2.3, 4.1): GET /api/v1/accounts/list, PUT /api/v1/accounts/{id} (only the
// updatable properties, with accountExclusion semantics), GET /api/v1/accounts/{id}/balances, and
// GET /data/v2/accounts (the service's Postman collection lists accounts there).
import { EP } from '../../contract/index.js';
import { writeJson } from '../../contract/exact-json.js';
import type { SandboxContext } from '../context.js';
import { ACCOUNT_TYPES, isAccountType, type AccountType } from '../../contract/vocabulary.js';
import type { AccountExclusion, AccountRecord } from '../store.js';
import { asObject, badRequest, envelope } from '../http.js';
import { connectorState } from '../connector/state.js';
import { providerByName } from '../providers/catalogue.js';
import { credentialsOf } from './credentials-view.js';
import {
  enumParam,
  listParam,
  ownAccount,
  pageSizeParam,
  repeatedParam,
  sendJson,
  userAccountList,
  v1Account,
  v1BalancesOf,
  v2Account,
  v2TypeOf,
  V2_ACCOUNT_TYPES,
} from './read-views.js';

export const EXCLUSIONS: AccountExclusion[] = ['NONE', 'AGGREGATION', 'PFM_AND_SEARCH', 'PFM_DATA'];
const UPDATABLE = ['accountExclusion', 'accountNumber', 'excluded', 'favored', 'name', 'type'];

const accountNotFound = (id: string) => envelope(404, 'account.not_found', `account "${id.slice(0, 80)}" not found`);

export function registerAccounts(ctx: SandboxContext): void {
  const { store, handle } = ctx;
  /** The bank of the account's credentials, when the credentials area knows them. */
  const institution = (a: AccountRecord) => {
    const c = a.credentialsIds[0] ? credentialsOf(store, a.credentialsIds[0]) : undefined;
    return c ? providerByName(c.providerName)?.financialInstitutionId : undefined;
  };
  const v1 = (a: AccountRecord) => v1Account(a, institution(a));

  handle(EP.accounts.list, (req, res) => {
    const user = req.user();
    sendJson(res, 200, { accounts: userAccountList(store, user.id).map(v1) });
  });

  handle(
    EP.accounts.update,
    async (req, res) => {
      const user = req.user();
      const body = asObject(await req.json());
      const account = ownAccount(store, user, req.params.id!);
      if (!account) throw accountNotFound(req.params.id!);
      const update = validateUpdate(body, JSON.parse(writeJson(v1(account))) as Record<string, unknown>);
      applyUpdate(ctx, account, update);
      sendJson(res, 200, v1(account));
    },
    { maxBody: 64 * 1024 },
  );

  handle(EP.accounts.balances, (req, res) => {
    const user = req.user();
    const account = ownAccount(store, user, req.params.id!);
    if (!account) throw accountNotFound(req.params.id!);
    if (account.accountExclusion === 'AGGREGATION')
      throw envelope(
        404,
        'balances.not_found',
        `account "${account.id}" has no balances: it is excluded from aggregation`,
      );
    // the reference's v1 shape: flat {currencyCode, scale, unscaledValue}, integers as JSON numbers
    sendJson(res, 200, { accountId: account.id, balances: v1BalancesOf(account), refreshed: account.updated });
  });

  handle(EP.accounts.listV2, (req, res) => {
    const user = req.user();
    const q = req.query;
    const pageSize = pageSizeParam(q, 100, 'clamp');
    // typesIn: the reference's filter on the v2 types; typeIn: the v1 types (kept for older callers)
    const types = listParam(q, 'typeIn').map((t) => t.toUpperCase());
    for (const t of types)
      if (!isAccountType(t)) throw badRequest(`typeIn: unknown account type "${t.slice(0, 40)}"`, { field: 'typeIn' });
    // the reference's filters: typesIn with the v2 types, idIn
    const v2Types = enumParam(repeatedParam(q, 'typesIn'), 'typesIn', V2_ACCOUNT_TYPES, 'account type');
    const ids = repeatedParam(q, 'idIn');
    const all = userAccountList(store, user.id).filter(
      (a) =>
        (types.length === 0 || types.includes(a.type)) &&
        (v2Types.length === 0 || v2Types.includes(v2TypeOf(a.type))) &&
        (ids.length === 0 || ids.includes(a.id)),
    );
    let start = 0;
    const token = q.get('pageToken');
    if (token) {
      // the token names the last account shown; accounts are listed in creation order
      let id: string;
      try {
        if (token.length > 200) throw new Error('long');
        id = Buffer.from(token, 'base64url').toString('utf8');
        if (!/^[\w-]{1,100}$/.test(id)) throw new Error('shape');
      } catch {
        throw badRequest('pageToken is not valid: pass the nextPageToken of the previous page unchanged', {
          field: 'pageToken',
        });
      }
      const last = store.accounts.get(id);
      if (!last || last.userId !== user.id)
        throw badRequest('pageToken is not valid (its account is gone): list again from the start', {
          field: 'pageToken',
        });
      start = all.findIndex((a) => a.created > last.created || (a.created === last.created && a.id > last.id));
      if (start < 0) start = all.length;
    }
    const page = all.slice(start, start + pageSize);
    const more = start + pageSize < all.length;
    sendJson(res, 200, {
      accounts: page.map((a) => v2Account(a, institution(a))),
      nextPageToken: more ? Buffer.from(page[page.length - 1]!.id).toString('base64url') : '',
    });
  });
}

interface AccountUpdate {
  accountExclusion?: AccountExclusion;
  accountNumber?: string;
  excluded?: boolean;
  favored?: boolean;
  name?: string;
  type?: AccountType;
}

/** Only the updatable properties may change; a read-only property sent back unchanged is ignored. */
function validateUpdate(body: Record<string, unknown>, current: Record<string, unknown>): AccountUpdate {
  const u: AccountUpdate = {};
  for (const [k, v] of Object.entries(body)) {
    if (UPDATABLE.includes(k)) continue;
    if (k in current && JSON.stringify(current[k]) === JSON.stringify(v)) continue;
    throw badRequest(`property "${k.slice(0, 60)}" cannot be updated (updatable: ${UPDATABLE.join(', ')})`, {
      field: k.slice(0, 60),
    });
  }
  if (body.accountExclusion !== undefined) {
    if (typeof body.accountExclusion !== 'string' || !(EXCLUSIONS as string[]).includes(body.accountExclusion)) {
      throw badRequest(`accountExclusion must be one of ${EXCLUSIONS.join(', ')}`, { field: 'accountExclusion' });
    }
    u.accountExclusion = body.accountExclusion as AccountExclusion;
  }
  if (body.accountNumber !== undefined) {
    if (typeof body.accountNumber !== 'string' || body.accountNumber.trim() === '' || body.accountNumber.length > 64) {
      throw badRequest('accountNumber must be a non-empty string of at most 64 characters', { field: 'accountNumber' });
    }
    u.accountNumber = body.accountNumber;
  }
  for (const k of ['excluded', 'favored'] as const) {
    if (body[k] === undefined) continue;
    if (typeof body[k] !== 'boolean') throw badRequest(`${k} must be true or false`, { field: k });
    u[k] = body[k] as boolean;
  }
  if (body.name !== undefined) {
    if (typeof body.name !== 'string' || body.name.trim() === '' || body.name.length > 128)
      throw badRequest('name must be a non-empty string of at most 128 characters', { field: 'name' });
    u.name = body.name;
  }
  if (body.type !== undefined) {
    if (!isAccountType(body.type))
      throw badRequest(`type must be one of ${ACCOUNT_TYPES.join(', ')}`, { field: 'type' });
    u.type = body.type;
  }
  // the deprecated excluded flag and accountExclusion must not contradict each other
  if (u.excluded !== undefined && u.accountExclusion !== undefined && u.excluded !== excludedFlag(u.accountExclusion)) {
    throw badRequest(
      `excluded=${u.excluded} contradicts accountExclusion=${u.accountExclusion}; send accountExclusion alone`,
      { field: 'excluded' },
    );
  }
  return u;
}

/**
 * The deprecated flag, as the Swagger defines it: categorisation, PFM and search excluded. That is
 * PFM_AND_SEARCH (or AGGREGATION); a PFM_DATA account stays searchable, so it is not "excluded".
 */
export function excludedFlag(e: AccountExclusion): boolean {
  return e === 'PFM_AND_SEARCH' || e === 'AGGREGATION';
}

function applyUpdate(ctx: SandboxContext, a: AccountRecord, u: AccountUpdate): void {
  if (u.name !== undefined) a.name = u.name;
  if (u.accountNumber !== undefined) a.accountNumber = u.accountNumber;
  if (u.type !== undefined) a.type = u.type;
  if (u.favored !== undefined) a.favored = u.favored;
  let exclusion = u.accountExclusion;
  // excluded=true alone is the deprecated spelling of PFM_AND_SEARCH; false clears the exclusion
  if (exclusion === undefined && u.excluded !== undefined && u.excluded !== a.excluded)
    exclusion = u.excluded ? 'PFM_AND_SEARCH' : 'NONE';
  if (exclusion !== undefined) {
    if (exclusion === 'AGGREGATION' && a.accountExclusion !== 'AGGREGATION') dropAggregatedData(ctx, a);
    a.accountExclusion = exclusion;
    a.excluded = excludedFlag(exclusion);
  }
  a.updated = ctx.store.clock.now();
}

/** AGGREGATION: existing data is removed except the name and the number (spec 2.3). */
function dropAggregatedData(ctx: SandboxContext, a: AccountRecord): void {
  const { store } = ctx;
  const connector = a.externalId !== undefined ? connectorState(store).users.get(a.userId) : undefined;
  const doomed: string[] = [];
  for (const t of store.transactions.ofUser(a.userId)) if (t.accountId === a.id) doomed.push(t.id);
  for (const id of doomed) {
    const t = store.transactions.get(id)!;
    store.transactions.delete(id);
    if (connector && t.externalId !== undefined && connector.transactions.get(t.externalId) === t)
      connector.transactions.delete(t.externalId);
  }
  a.balance = '0';
  delete a.availableCredit;
  delete a.reservedAmount;
  delete a.holderName;
  delete a.iban;
  delete a.payload;
  delete a.portfolioType;
}
