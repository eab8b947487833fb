// Balance refresh (spec 2.6, 4.1, 7, 8): POST /api/v1/balance-refresh and
// GET /api/v1/balance-refresh/{refreshId}, answered as the vendor reference shows them: the create
// answer carries credentialsId, the status is REFRESHING, then FINISHED or FAILED (FAILED when the
// credentials are in an error status when it ends). Errors are problem+json as the spec shows them; the quota
// is 5 refreshes per account per 2 hours (a sliding window on the sandbox clock), answered 429.
import { EP } from '../../contract/index.js';
import { handleAll, type Handler, type RouteRow } from '../router.js';
import type { SandboxContext } from '../context.js';
import { asObject, problem } from '../http.js';
import type { AccountRecord, MemoryStore } from '../store.js';
import { credentialsOf } from './credentials-view.js';

export const BALANCE_REFRESH_QUOTA = 5;
export const BALANCE_REFRESH_WINDOW_MS = 2 * 60 * 60 * 1000;
/** How long a refresh takes before it is FINISHED. */
export const BALANCE_REFRESH_DELAY_MS = 200;

interface RefreshRecord {
  id: string;
  userId: string;
  accountId: string;
  credentialId: string;
  status: 'REFRESHING' | 'FINISHED' | 'FAILED';
  created: number;
}

class BalanceRefreshState {
  refreshes = new Map<string, RefreshRecord>();
  /** accountId -> creation times within the window */
  history = new Map<string, number[]>();
}

const invalid = (reason: string, instance: string) =>
  problem(
    400,
    'urn:errors:invalid-argument',
    'Invalid request params',
    reason,
    [{ name: 'accountId', reason }],
    instance,
  );

/** What the balance refresh handlers share: the refreshes made so far. */
interface BalanceRefreshArea {
  ctx: SandboxContext;
  store: MemoryStore;
  state: () => BalanceRefreshState;
}

function balanceRefreshArea(ctx: SandboxContext): BalanceRefreshArea {
  const { store } = ctx;
  const state = () => store.area('balance-refresh', () => new BalanceRefreshState());
  store.onUserDeleted((userId) => {
    const s = state();
    for (const [id, r] of s.refreshes) if (r.userId === userId) s.refreshes.delete(id);
  });
  return { ctx, store, state };
}

function createRefresh({ ctx, store, state }: BalanceRefreshArea): Handler {
  return async (req, res) => {
    const user = req.user();
    let body: Record<string, unknown>;
    try {
      body = asObject(await req.json());
    } catch {
      throw problem(
        400,
        'urn:errors:invalid-argument',
        'Invalid request params',
        'the body must be a JSON object {"accountId": "..."}',
        [{ name: 'accountId', reason: 'must not be empty' }],
        req.path,
      );
    }
    const accountId = body.accountId;
    if (accountId === undefined || accountId === null || (typeof accountId === 'string' && accountId.trim() === ''))
      throw invalid('must not be empty', req.path);
    if (typeof accountId !== 'string') throw invalid('must be a string', req.path);
    const account = store.accounts.get(accountId);
    if (!account || account.userId !== user.id)
      throw invalid(`no account "${accountId.slice(0, 80)}" for this user`, req.path);
    const credentialId = account.credentialsIds[0];
    if (!credentialId || account.accountExclusion === 'AGGREGATION') {
      throw problem(
        403,
        'urn:errors:invalid-credentials',
        'Invalid credential',
        'the account has no credentials that can refresh it',
        undefined,
        req.path,
      );
    }
    const s = state();
    const now = store.clock.now();
    const recent = (s.history.get(account.id) ?? []).filter((t) => t > now - BALANCE_REFRESH_WINDOW_MS);
    if (recent.length >= BALANCE_REFRESH_QUOTA) {
      const retryAfter = Math.max(1, Math.ceil((recent[0]! + BALANCE_REFRESH_WINDOW_MS - now) / 1000));
      const err = problem(
        429,
        'about:errors:too-many-requests',
        'Too Many Requests',
        `at most ${BALANCE_REFRESH_QUOTA} balance refreshes per account per 2 hours; the next is possible in ${retryAfter} s`,
        undefined,
        req.path,
      );
      Object.assign(err.headers, { 'retry-after': String(retryAfter) });
      s.history.set(account.id, recent);
      throw err;
    }
    recent.push(now);
    s.history.set(account.id, recent);
    const rec: RefreshRecord = {
      id: store.ids.next(),
      userId: user.id,
      accountId: account.id,
      credentialId,
      status: 'REFRESHING',
      created: now,
    };
    s.refreshes.set(rec.id, rec);
    ctx.setTimeout(() => finish(ctx, rec), BALANCE_REFRESH_DELAY_MS);
    res.json(200, { balanceRefreshId: rec.id, credentialsId: credentialId });
  };
}

function refreshStatus({ ctx, store, state }: BalanceRefreshArea): Handler {
  return (req, res) => {
    const user = req.user();
    const rec = state().refreshes.get(req.params.refreshId!);
    if (!rec || rec.userId !== user.id) {
      throw problem(
        404,
        'urn:errors:not-found',
        'Not Found',
        `no balance refresh "${req.params.refreshId!.slice(0, 80)}"`,
        undefined,
        req.path,
      );
    }
    const account = store.accounts.get(rec.accountId);
    if (!account || !usable(account, rec.credentialId)) {
      throw problem(
        403,
        'urn:errors:invalid-credentials',
        'Invalid credential',
        'the credentials of this refresh are gone or no longer give access to the account',
        undefined,
        req.path,
      );
    }
    // a refresh whose timer was lost (a restart) is finished once its time has passed
    if (rec.status === 'REFRESHING' && store.clock.now() - rec.created >= BALANCE_REFRESH_DELAY_MS) finish(ctx, rec);
    res.json(200, { status: rec.status, balanceRefreshId: rec.id, accountId: rec.accountId });
  };
}

const ROUTES: Array<RouteRow<BalanceRefreshArea>> = [
  [EP.balanceRefresh.create, createRefresh, { maxBody: 16 * 1024 }],
  [EP.balanceRefresh.status, refreshStatus],
];

export function registerBalanceRefresh(ctx: SandboxContext): void {
  handleAll(ctx.handle, balanceRefreshArea(ctx), ROUTES);
}

function usable(a: AccountRecord, credentialId: string): boolean {
  return a.credentialsIds.includes(credentialId) && a.accountExclusion !== 'AGGREGATION';
}

/** Credentials statuses in which a bank cannot be asked for a balance. */
const FAILING = new Set(['AUTHENTICATION_ERROR', 'TEMPORARY_ERROR', 'PERMANENT_ERROR', 'SESSION_EXPIRED', 'DELETED']);

function finish(ctx: SandboxContext, rec: RefreshRecord): void {
  if (rec.status !== 'REFRESHING') return;
  const c = credentialsOf(ctx.store, rec.credentialId);
  if (c && FAILING.has(c.status)) {
    rec.status = 'FAILED';
    return;
  }
  rec.status = 'FINISHED';
  const a = ctx.store.accounts.get(rec.accountId);
  if (a) a.updated = ctx.store.clock.now();
}
