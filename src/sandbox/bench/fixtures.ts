// POST /sandbox/fixtures: a scenario from a document (`sandbox load FILE`, `sandbox start --fixtures`).
// The whole document is validated first (every problem with its JSON pointer, nothing loaded when
// there is one); then users, their credentials, accounts and transactions, connector users and
// webhook registrations are made. Every object gets an id derived from its name in the file (or the
// fixed id given), so loading the same document again finds them and changes nothing.
// Connector users go through the sandbox's own connector API, as a partner's connector would: they
// and their accounts get that API's ids, and are found again by their externalIds.
import { createHash } from 'node:crypto';
import { Agent, request } from 'undici';
import { isLocale, isMarket, MARKET_DEFAULT_LOCALE } from '../../contract/markets.js';
import type { SandboxContext } from '../context.js';
import { EVENT_NAMES } from '../context.js';
import { asObject, HttpFailure } from '../http.js';
import { ConnectorTokens, type Handler } from '../router.js';
import { ExactNumber, writeJson } from '../../contract/exact-json.js';
import { ACCOUNT_TYPES, isAccountType } from '../../contract/vocabulary.js';
import type { AccountRecord, UserRecord } from '../store.js';
import { categoryByCode } from '../categories.js';
import { CredentialsState, type CredRecord } from '../providers/engine.js';
import { providerByName, type ProviderDef } from '../providers/catalogue.js';
import { generateDemoData } from '../demo-data.js';
import { ENGINES } from '../providers/engine.js';
import { validateRegistration, webhookDelivery, type WebhookRecord } from '../webhooks.js';
import { addTransactions, isDay, isDecimal, type ExplicitTransaction } from './transactions.js';
import { testIdentity } from '../providers/identities.js';

export interface Problem {
  pointer: string;
  message: string;
}

const SESSION_MS = 90 * 86_400_000;
const FIXTURE_STATUSES = [
  'UPDATED',
  'CREATED',
  'AUTHENTICATION_ERROR',
  'TEMPORARY_ERROR',
  'PERMANENT_ERROR',
  'SESSION_EXPIRED',
];
const NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;
const HEX32 = /^[0-9a-f]{32}$/;
const MAX_ITEMS = 10_000;

/** The checks of one document: problems collected with their pointers, never thrown. */
class Checker {
  readonly problems: Problem[] = [];
  private readonly names = new Map<string, string>();
  problem(pointer: string, message: string): void {
    if (this.problems.length < 100) this.problems.push({ pointer, message });
  }
  object(v: unknown, p: string): Record<string, unknown> | undefined {
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    this.problem(p, 'must be an object');
    return undefined;
  }
  list(v: unknown, p: string, max = MAX_ITEMS): unknown[] {
    if (v === undefined) return [];
    if (Array.isArray(v) && v.length <= max) return v;
    this.problem(p, `must be a list of at most ${max} items`);
    return [];
  }
  keys(o: Record<string, unknown>, p: string, allowed: string[]): void {
    for (const k of Object.keys(o))
      if (!allowed.includes(k)) this.problem(`${p}/${esc(k)}`, `unknown key; allowed: ${allowed.join(', ')}`);
  }
  /** A unique name of this kind (the key of the printed map). */
  name(o: Record<string, unknown>, p: string, kind: string): string {
    const n = o.name;
    if (typeof n !== 'string' || !NAME.test(n)) {
      this.problem(`${p}/name`, 'is required: 1 to 64 letters, digits, _ . - (the key of the printed id map)');
      return '';
    }
    const seen = this.names.get(`${kind}:${n}`);
    if (seen) this.problem(`${p}/name`, `"${n}" is used twice for ${kind} (also at ${seen})`);
    else this.names.set(`${kind}:${n}`, `${p}/name`);
    return n;
  }
  str(
    o: Record<string, unknown>,
    k: string,
    p: string,
    test: (s: string) => boolean,
    what: string,
    required = false,
  ): string | undefined {
    const v = o[k];
    if (v === undefined || v === null) {
      if (required) this.problem(`${p}/${k}`, `is required: ${what}`);
      return undefined;
    }
    const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : v;
    if (typeof s !== 'string' || !test(s)) {
      this.problem(`${p}/${k}`, `must be ${what}`);
      return undefined;
    }
    return s;
  }
  bool(o: Record<string, unknown>, k: string, p: string): boolean | undefined {
    const v = o[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') this.problem(`${p}/${k}`, 'must be true or false');
    return v === true;
  }
}

const esc = (k: string) => k.slice(0, 60).replace(/~/g, '~0').replace(/\//g, '~1');

interface TxPlan {
  explicit?: Array<ExplicitTransaction & { name?: string }>;
  generate?: {
    count: number;
    from?: string;
    to?: string;
    amountMin?: string;
    amountMax?: string;
    seed: string;
    pending: boolean;
  };
}
interface AccountPlan {
  name: string;
  id?: string;
  type: AccountRecord['type'];
  currency?: string;
  balance: string;
  displayName?: string;
  tx: TxPlan;
}
interface CredPlan {
  name: string;
  id?: string;
  provider: ProviderDef;
  status: string;
  fields?: Record<string, string>;
  demoData: boolean;
  accounts: AccountPlan[];
}
interface UserPlan {
  name: string;
  id?: string;
  externalUserId?: string;
  market: string;
  locale: string;
  credentials: CredPlan[];
}
interface ConnectorAccountPlan {
  name: string;
  externalId: string;
  type: string;
  balance: string;
  displayName?: string;
  transactions: Array<{ externalId: string; amount: string; date: string; description: string; pending: boolean }>;
}
interface ConnectorUserPlan {
  name: string;
  externalUserId: string;
  token?: string;
  market: string;
  locale?: string;
  accounts: ConnectorAccountPlan[];
}
interface WebhookPlan {
  name: string;
  url: string;
  secret: string;
  events: string[];
}
export interface Plan {
  users: UserPlan[];
  connectorUsers: ConnectorUserPlan[];
  webhooks: WebhookPlan[];
}

function transactionsPlan(c: Checker, v: unknown, p: string, seedBase: string): TxPlan {
  if (v === undefined) return {};
  if (Array.isArray(v)) {
    const explicit = c.list(v, p).map((t, i) => {
      const tp = `${p}/${i}`;
      const o = c.object(t, tp);
      if (!o) return undefined;
      c.keys(o, tp, ['name', 'amount', 'date', 'description', 'pending', 'category']);
      if (o.name !== undefined) c.name(o, tp, 'transactions');
      const amount = c.str(o, 'amount', tp, isDecimal, 'an exact decimal amount as a string, such as "-12.50"', true);
      const date = c.str(o, 'date', tp, isDay, 'a date YYYY-MM-DD', true);
      const description = c.str(o, 'description', tp, (s) => s.length > 0 && s.length <= 200, '1 to 200 characters');
      const category = c.str(
        o,
        'category',
        tp,
        (s) => !!categoryByCode(s) && s.includes('.'),
        'a category code such as expenses:food.groceries',
      );
      const pending = c.bool(o, 'pending', tp);
      if (!amount || !date) return undefined;
      return {
        name: typeof o.name === 'string' ? o.name : undefined,
        amount,
        date,
        description: description ?? 'Sandbox transaction',
        pending: pending ?? false,
        categoryCode: category,
      };
    });
    return { explicit: explicit.filter((t): t is NonNullable<typeof t> => !!t) };
  }
  const o = c.object(v, p);
  if (!o) return {};
  c.keys(o, p, ['generate']);
  const g = c.object(o.generate, `${p}/generate`);
  if (!g) return {};
  const gp = `${p}/generate`;
  c.keys(g, gp, ['count', 'from', 'to', 'amountMin', 'amountMax', 'seed', 'pending']);
  const count = g.count;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 1000)
    c.problem(`${gp}/count`, 'must be a whole number from 1 to 1000');
  const from = c.str(g, 'from', gp, isDay, 'a date YYYY-MM-DD');
  const to = c.str(g, 'to', gp, isDay, 'a date YYYY-MM-DD');
  if (!!from !== !!to) c.problem(`${gp}/${from ? 'to' : 'from'}`, 'give from and to together');
  if (from && to && from > to) c.problem(`${gp}/from`, 'must not be after to');
  const amountMin = c.str(g, 'amountMin', gp, isDecimal, 'a decimal amount as a string');
  const amountMax = c.str(g, 'amountMax', gp, isDecimal, 'a decimal amount as a string');
  if (!!amountMin !== !!amountMax)
    c.problem(`${gp}/${amountMin ? 'amountMax' : 'amountMin'}`, 'give amountMin and amountMax together');
  if (amountMin && amountMax && Number(amountMin) > Number(amountMax))
    c.problem(`${gp}/amountMin`, 'must not be above amountMax');
  const seed = c.str(g, 'seed', gp, (s) => s.length <= 200, 'a string or number') ?? seedBase;
  const pending = c.bool(g, 'pending', gp) ?? false;
  return { generate: { count: Number(count), from, to, amountMin, amountMax, seed, pending } };
}

function accountPlan(c: Checker, v: unknown, p: string): AccountPlan | undefined {
  const o = c.object(v, p);
  if (!o) return undefined;
  c.keys(o, p, ['name', 'id', 'type', 'currency', 'balance', 'displayName', 'transactions']);
  const name = c.name(o, p, 'accounts');
  const id = c.str(o, 'id', p, (s) => HEX32.test(s), '32 lowercase hex digits');
  const type = (c.str(o, 'type', p, isAccountType, `one of ${ACCOUNT_TYPES.join(', ')}`) ??
    'CHECKING') as AccountRecord['type'];
  const currency = c.str(o, 'currency', p, (s) => /^[A-Z]{3}$/.test(s), 'a currency code such as SEK');
  const balance = c.str(o, 'balance', p, isDecimal, 'an exact decimal amount as a string, such as "1250.00"', true);
  const displayName = c.str(o, 'displayName', p, (s) => s.length > 0 && s.length <= 100, '1 to 100 characters');
  const tx = transactionsPlan(c, o.transactions, `${p}/transactions`, name);
  return { name, id, type, currency, balance: balance ?? '0', displayName, tx };
}

function credentialsPlan(c: Checker, v: unknown, p: string): CredPlan | undefined {
  const o = c.object(v, p);
  if (!o) return undefined;
  c.keys(o, p, ['name', 'id', 'provider', 'status', 'fields', 'demoData', 'accounts']);
  const name = c.name(o, p, 'credentials');
  const id = c.str(o, 'id', p, (s) => HEX32.test(s), '32 lowercase hex digits');
  const providerName = c.str(
    o,
    'provider',
    p,
    (s) => !!providerByName(s),
    'the name of a sandbox provider (bankctl providers list --include-test)',
    true,
  );
  const status =
    c.str(o, 'status', p, (s) => FIXTURE_STATUSES.includes(s), `one of ${FIXTURE_STATUSES.join(', ')}`) ?? 'UPDATED';
  let fields: Record<string, string> | undefined;
  if (o.fields !== undefined) {
    const f = c.object(o.fields, `${p}/fields`);
    if (f) {
      fields = {};
      for (const [k, val] of Object.entries(f)) {
        if (typeof val !== 'string' || val.length > 1024) c.problem(`${p}/fields/${esc(k)}`, 'must be a string');
        else fields[k] = val;
      }
    }
  }
  const demoData = c.bool(o, 'demoData', p) ?? false;
  const accounts = c.list(o.accounts, `${p}/accounts`, 100).map((a, i) => accountPlan(c, a, `${p}/accounts/${i}`));
  if (demoData && accounts.length > 0) c.problem(`${p}/demoData`, 'give demoData or accounts, not both');
  if (demoData && status !== 'UPDATED') c.problem(`${p}/demoData`, 'demo data comes with status UPDATED only');
  return {
    name,
    id,
    provider: providerByName(providerName ?? '')!,
    status,
    fields,
    demoData,
    accounts: accounts.filter((a): a is AccountPlan => !!a),
  };
}

function userPlan(c: Checker, v: unknown, p: string): UserPlan | undefined {
  const o = c.object(v, p);
  if (!o) return undefined;
  c.keys(o, p, ['name', 'id', 'externalUserId', 'market', 'locale', 'credentials']);
  const name = c.name(o, p, 'users');
  const id = c.str(o, 'id', p, (s) => HEX32.test(s), '32 lowercase hex digits');
  const externalUserId = c.str(o, 'externalUserId', p, (s) => s.length > 0 && s.length <= 200, '1 to 200 characters');
  const market = c.str(o, 'market', p, isMarket, 'a market code such as SE') ?? 'SE';
  const locale = c.str(o, 'locale', p, isLocale, 'a locale such as sv_SE') ?? MARKET_DEFAULT_LOCALE[market] ?? 'en_US';
  const credentials = c
    .list(o.credentials, `${p}/credentials`, 100)
    .map((x, i) => credentialsPlan(c, x, `${p}/credentials/${i}`));
  return { name, id, externalUserId, market, locale, credentials: credentials.filter((x): x is CredPlan => !!x) };
}

function connectorUserPlan(c: Checker, v: unknown, p: string): ConnectorUserPlan | undefined {
  const o = c.object(v, p);
  if (!o) return undefined;
  c.keys(o, p, ['name', 'externalUserId', 'token', 'market', 'locale', 'accounts']);
  const name = c.name(o, p, 'connectorUsers');
  const externalUserId =
    c.str(o, 'externalUserId', p, (s) => /^[\w.@:-]{1,200}$/.test(s), '1 to 200 letters, digits, _ . @ : -', true) ??
    '';
  const token = c.str(o, 'token', p, (s) => s.length >= 8 && s.length <= 200, '8 to 200 characters');
  const market = c.str(o, 'market', p, isMarket, 'a market code such as SE') ?? 'SE';
  const locale = c.str(o, 'locale', p, isLocale, 'a locale such as sv_SE');
  const accounts = c.list(o.accounts, `${p}/accounts`, 100).map((a, i): ConnectorAccountPlan | undefined => {
    const ap = `${p}/accounts/${i}`;
    const ao = c.object(a, ap);
    if (!ao) return undefined;
    c.keys(ao, ap, ['name', 'externalId', 'type', 'balance', 'displayName', 'transactions']);
    const aname = c.name(ao, ap, 'connectorAccounts');
    const externalId =
      c.str(ao, 'externalId', ap, (s) => s.length > 0 && s.length <= 200, '1 to 200 characters') ?? aname;
    const type =
      c.str(
        ao,
        'type',
        ap,
        (s) => ['CHECKING', 'SAVINGS', 'CREDIT_CARD', 'INVESTMENT', 'LOAN', 'MORTGAGE', 'PENSION', 'OTHER'].includes(s),
        'an account type such as CHECKING',
      ) ?? 'CHECKING';
    const balance = c.str(ao, 'balance', ap, isDecimal, 'an exact decimal amount as a string', true) ?? '0';
    const displayName = c.str(ao, 'displayName', ap, (s) => s.length > 0 && s.length <= 100, '1 to 100 characters');
    const transactions = c.list(ao.transactions, `${ap}/transactions`).map((t, j) => {
      const tp = `${ap}/transactions/${j}`;
      const to = c.object(t, tp);
      if (!to) return undefined;
      c.keys(to, tp, ['externalId', 'amount', 'date', 'description', 'pending']);
      const amount = c.str(to, 'amount', tp, isDecimal, 'an exact decimal amount as a string', true);
      const date = c.str(to, 'date', tp, isDay, 'a date YYYY-MM-DD', true);
      const description =
        c.str(to, 'description', tp, (s) => s.length > 0 && s.length <= 200, '1 to 200 characters') ?? 'Transaction';
      const tExt =
        c.str(to, 'externalId', tp, (s) => s.length > 0 && s.length <= 200, '1 to 200 characters') ??
        `${externalId}-${j}`;
      const pending = c.bool(to, 'pending', tp) ?? false;
      return amount && date ? { externalId: tExt, amount, date, description, pending } : undefined;
    });
    return {
      name: aname,
      externalId,
      type,
      balance,
      displayName,
      transactions: transactions.filter((t): t is NonNullable<typeof t> => !!t),
    };
  });
  return {
    name,
    externalUserId,
    token,
    market,
    locale,
    accounts: accounts.filter((a): a is ConnectorAccountPlan => !!a),
  };
}

function webhookPlan(c: Checker, v: unknown, p: string): WebhookPlan | undefined {
  const o = c.object(v, p);
  if (!o) return undefined;
  c.keys(o, p, ['name', 'url', 'secret', 'events']);
  const name = c.name(o, p, 'webhooks');
  try {
    const r = validateRegistration(o);
    return { name, ...r };
  } catch (err) {
    const body = (err as HttpFailure).body as { errorMessage?: string; errorDetails?: { field?: string } } | undefined;
    c.problem(
      `${p}/${body?.errorDetails?.field ?? ''}`.replace(/\/$/, ''),
      body?.errorMessage ?? 'is not a valid registration',
    );
    return undefined;
  }
}

/** Validates a whole document: the plan, or every problem found. */
export function checkFixtures(doc: unknown): { plan?: Plan; problems: Problem[] } {
  const c = new Checker();
  const o = c.object(doc, '');
  if (!o) return { problems: c.problems };
  c.keys(o, '', ['$schema', 'version', 'users', 'connectorUsers', 'webhooks']);
  if (o.version !== undefined && o.version !== 1) c.problem('/version', 'must be 1');
  const users = c.list(o.users, '/users', 1000).map((u, i) => userPlan(c, u, `/users/${i}`));
  const connectorUsers = c
    .list(o.connectorUsers, '/connectorUsers', 1000)
    .map((u, i) => connectorUserPlan(c, u, `/connectorUsers/${i}`));
  const webhooks = c.list(o.webhooks, '/webhooks', 100).map((w, i) => webhookPlan(c, w, `/webhooks/${i}`));
  if (c.problems.length > 0) return { problems: c.problems };
  return {
    plan: {
      users: users.filter((u): u is UserPlan => !!u),
      connectorUsers: connectorUsers.filter((u): u is ConnectorUserPlan => !!u),
      webhooks: webhooks.filter((w): w is WebhookPlan => !!w),
    },
    problems: [],
  };
}

/** A stable id from a name: the same document loads to the same ids. */
function idFor(...parts: string[]): string {
  return createHash('sha256')
    .update(`bankctl-fixture:${parts.join('\u0000')}`)
    .digest('hex')
    .slice(0, 32);
}

export interface LoadResult {
  users: Record<string, string>;
  credentials: Record<string, string>;
  accounts: Record<string, string>;
  transactions: Record<string, string>;
  connectorUsers: Record<string, string>;
  connectorAccounts: Record<string, string>;
  webhooks: Record<string, string>;
  /** How many objects this load made (0 when the document was loaded before). */
  created: number;
}

function loadCredentials(ctx: SandboxContext, user: UserRecord, cp: CredPlan, out: LoadResult): void {
  const { store } = ctx;
  const records = store.area('credentials', () => new CredentialsState()).records;
  const id = cp.id ?? idFor('credentials', user.id, cp.name);
  out.credentials[cp.name] = id;
  const now = ctx.clock.now();
  let rec = records.get(id);
  if (!rec) {
    const updated = cp.status === 'UPDATED';
    rec = {
      id,
      userId: user.id,
      providerName: cp.provider.name,
      type: cp.provider.credentialsType,
      fields: cp.fields ?? testIdentity(cp.provider),
      status: cp.status,
      statusUpdated: now,
      statusPayload: '',
      updated: updated ? now : null,
      supplementalInformation: null,
      sessionExpiryDate: updated ? now + SESSION_MS : cp.status === 'SESSION_EXPIRED' ? now - 1 : null,
      accountIds: [],
      needsAuth: !updated && cp.status !== 'SESSION_EXPIRED',
      created: now,
    } satisfies CredRecord;
    records.set(id, rec);
    out.created++;
    const engine = ENGINES.get(ctx);
    engine?.emitCreate(rec);
    if (cp.demoData && engine) {
      const accounts = generateDemoData(store, engine.demoOptions(rec, cp.provider));
      rec.accountIds = accounts.map((a) => a.id);
    }
  }
  for (const ap of cp.accounts) {
    const aid = ap.id ?? idFor('account', id, ap.name);
    out.accounts[ap.name] = aid;
    if (!store.accounts.has(aid)) {
      store.accounts.set(aid, {
        id: aid,
        userId: user.id,
        credentialsIds: [id],
        name: ap.displayName ?? ap.name,
        accountNumber: `${aid.slice(0, 4)}-${parseInt(aid.slice(4, 12), 16) % 1_000_000_000}`,
        type: ap.type,
        balance: ap.balance,
        currencyCode: ap.currency ?? cp.provider.currency,
        closed: false,
        accountExclusion: 'NONE',
        excluded: false,
        favored: false,
        flags: [],
        created: now,
        updated: now,
      });
      if (!rec.accountIds.includes(aid)) rec.accountIds.push(aid);
      out.created++;
      const account = store.accounts.get(aid)!;
      const balance = account.balance;
      const explicit = ap.tx.explicit;
      const r = addTransactions(
        ctx,
        user,
        account,
        {
          userId: user.id,
          accountId: aid,
          ...(explicit ? { transactions: explicit } : ap.tx.generate ? { ...ap.tx.generate } : { transactions: [] }),
        },
        (i) => idFor('transaction', aid, String(i)),
      );
      // the balance is the one the file declares: its transactions are history
      account.balance = balance;
      out.created += r.ids.length;
    }
    ap.tx.explicit?.forEach((t, i) => {
      if (t.name) out.transactions[t.name] = idFor('transaction', aid, String(i));
    });
  }
}

/** Another object already holds a fixed id or external id the file asks for: a 409 naming it. */
function conflict(message: string): HttpFailure {
  return new HttpFailure(409, { errorMessage: message, errorCode: 'fixtures.conflict' });
}

function loadUser(ctx: SandboxContext, up: UserPlan, out: LoadResult): void {
  const { store } = ctx;
  const id = up.id ?? (up.externalUserId && store.userByExternalId(up.externalUserId)?.id) ?? idFor('user', up.name);
  out.users[up.name] = id;
  let user = store.users.get(id);
  if (user && up.externalUserId !== undefined && user.externalUserId !== up.externalUserId)
    throw conflict(`user ${id} exists with another externalUserId`);
  if (!user) {
    user = {
      id,
      market: up.market,
      locale: up.locale,
      created: ctx.clock.now(),
      ...(up.externalUserId ? { externalUserId: up.externalUserId } : {}),
    };
    store.addUser(user);
    out.created++;
  }
  for (const cp of up.credentials) loadCredentials(ctx, user, cp, out);
}

const insecure = new Agent({ connect: { rejectUnauthorized: false } });

/** A call to the sandbox's own connector API with its connector token. */
async function connectorCall(
  ctx: SandboxContext,
  method: 'POST' | 'GET',
  path: string,
  body?: unknown,
): Promise<number> {
  const connectorToken =
    ctx.store
      .area('connector-tokens', () => new ConnectorTokens())
      .list()
      .at(-1) ?? '';
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await request(`${ctx.baseUrl()}${path}`, {
        method,
        dispatcher: insecure,
        headers: { authorization: `Token ${connectorToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : writeJson(body),
      });
      const text = await res.body.text();
      if ((res.statusCode === 429 || res.statusCode >= 500) && attempt < 4) continue;
      if (res.statusCode >= 300 && res.statusCode !== 404)
        throw conflict(`the connector API answered ${res.statusCode} to ${method} ${path}: ${text.slice(0, 300)}`);
      return res.statusCode;
    } catch (err) {
      if (err instanceof HttpFailure || attempt >= 4) throw err;
    }
  }
}

async function loadConnectorUser(ctx: SandboxContext, cu: ConnectorUserPlan, out: LoadResult): Promise<void> {
  const { store } = ctx;
  const path = `/connector/users/${encodeURIComponent(cu.externalUserId)}`;
  let user = store.userByExternalId(cu.externalUserId);
  if (user && !user.connector)
    throw conflict(`externalUserId ${cu.externalUserId} belongs to a user that is not a connector user`);
  if (!user) {
    await connectorCall(ctx, 'POST', '/connector/users', {
      externalId: cu.externalUserId,
      token: cu.token ?? idFor('connector-token', cu.externalUserId),
      market: cu.market,
      ...(cu.locale ? { locale: cu.locale } : {}),
    });
    out.created++;
    user = store.userByExternalId(cu.externalUserId);
  }
  out.connectorUsers[cu.name] = user?.id ?? cu.externalUserId;
  const known = new Set([...store.accounts.values()].filter((a) => a.userId === user?.id).map((a) => a.externalId));
  const fresh = cu.accounts.filter((a) => !known.has(a.externalId));
  if (fresh.length > 0) {
    await connectorCall(ctx, 'POST', `${path}/accounts`, {
      accounts: fresh.map((a) => ({
        externalId: a.externalId,
        name: a.displayName ?? a.name,
        number: a.externalId,
        balance: new ExactNumber(a.balance),
        type: a.type,
      })),
    });
    out.created += fresh.length;
    const withTx = fresh.filter((a) => a.transactions.length > 0);
    if (withTx.length > 0) {
      await connectorCall(ctx, 'POST', `${path}/transactions`, {
        type: 'BATCH',
        transactionAccounts: withTx.map((a) => ({
          externalId: a.externalId,
          balance: new ExactNumber(a.balance),
          transactions: a.transactions.map((t) => ({
            externalId: t.externalId,
            amount: new ExactNumber(t.amount),
            date: Date.parse(`${t.date}T12:00:00Z`),
            description: t.description,
            type: 'DEFAULT',
            pending: t.pending,
          })),
        })),
      });
      out.created += withTx.reduce((n, a) => n + a.transactions.length, 0);
    }
  }
  for (const a of cu.accounts) {
    const rec = [...store.accounts.values()].find((x) => x.userId === user?.id && x.externalId === a.externalId);
    out.connectorAccounts[a.name] = rec?.id ?? a.externalId;
  }
}

function loadWebhook(ctx: SandboxContext, w: WebhookPlan, out: LoadResult): void {
  const delivery = webhookDelivery(ctx);
  const id = idFor('webhook', w.name);
  out.webhooks[w.name] = id;
  const hooks = delivery.state().hooks;
  if (hooks.has(id)) return;
  const rec: WebhookRecord = {
    id,
    url: w.url,
    secret: w.secret,
    events: w.events as (typeof EVENT_NAMES)[number][],
    source: 'connector',
    created: ctx.clock.now(),
  };
  hooks.set(id, rec);
  out.created++;
}

/** Loads a checked plan; objects that exist already are left as they are. */
export async function loadPlan(ctx: SandboxContext, plan: Plan): Promise<LoadResult> {
  const out: LoadResult = {
    users: {},
    credentials: {},
    accounts: {},
    transactions: {},
    connectorUsers: {},
    connectorAccounts: {},
    webhooks: {},
    created: 0,
  };
  // registrations first: the events of what follows reach them
  for (const w of plan.webhooks) loadWebhook(ctx, w, out);
  for (const u of plan.users) loadUser(ctx, u, out);
  for (const cu of plan.connectorUsers) await loadConnectorUser(ctx, cu, out);
  return out;
}

export function loadFixturesHandler(ctx: SandboxContext): Handler {
  return async (req, res) => {
    const doc = asObject(await req.json(), 'the fixtures document');
    const { plan, problems } = checkFixtures(doc);
    if (!plan)
      throw new HttpFailure(400, {
        errorMessage: `the fixtures document has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was loaded`,
        errorCode: 'fixtures.invalid',
        errorDetails: { problems },
      });
    res.json(200, await loadPlan(ctx, plan));
  };
}
