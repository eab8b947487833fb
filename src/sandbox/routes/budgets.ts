// Budgets (spec 4.2, shapes from the Swagger): ten endpoints, one-off and recurring, active then
// archived, spending computed from the user's expenses. Error bodies are plain strings or empty.
import { EP } from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { plain } from '../http.js';
import { type Handler, type Req, type RouteRow, handleAll } from '../router.js';
import type { MemoryStore } from '../store.js';
import { plainJson } from './reports.js';
import {
  budgetJson,
  budgetTransactions,
  inPeriod,
  parseAmount,
  parseEpoch,
  parseFilter,
  parseName,
  parseOneOff,
  parseRecurring,
  periodAt,
  periodsBetween,
  spent,
  userCurrency,
  type BudgetPeriod,
  type BudgetRecord,
} from '../finance/budgets.js';
import { add, denominated, divHalfEven, ZERO, type Dec, toStr } from '../../contract/decimal.js';
import { bucketOf, bucketsBetween } from '../finance/dates.js';
import { categoryName, primaryOf } from '../categories.js';
import { txCategory, txType, userTransactions } from '../finance/data.js';

class BudgetState {
  budgets = new Map<string, BudgetRecord>();
}
const state = (store: MemoryStore) => store.area('budgets', () => new BudgetState());

/** At most this many periods in one details answer. */
export const MAX_PERIODS = 1000;

function atScale(d: Dec, scale: number): Dec {
  return d.s >= scale ? d : { u: d.u * 10n ** BigInt(scale - d.s), s: scale };
}

/** What the budget handlers share: the caller's budgets and how a budget and its periods are shown. */
interface BudgetsArea {
  ctx: SandboxContext;
  store: MemoryStore;
  /** The caller's budget of the path (a plain 404 otherwise). */
  find(req: Req): BudgetRecord;
  bodyOf(req: Req): Promise<Record<string, unknown>>;
  listOf(req: Req): BudgetRecord[];
  scaleOf(b: BudgetRecord): number;
  periodJson(
    b: BudgetRecord,
    p: BudgetPeriod,
    txs?: ReturnType<typeof budgetTransactions>,
  ): { start: number; end: number; spentAmount: ReturnType<typeof denominated> };
  create(kind: 'ONE_OFF' | 'RECURRING'): Handler;
}

function budgetsArea(ctx: SandboxContext): BudgetsArea {
  const { store } = ctx;
  store.onUserDeleted((userId) => {
    for (const [id, b] of state(store).budgets) if (b.userId === userId) state(store).budgets.delete(id);
  });

  const find = (req: Req): BudgetRecord => {
    const user = req.user();
    const b = state(store).budgets.get(req.params.id!);
    if (!b || b.userId !== user.id) throw plain(404, `budget ${req.params.id!.slice(0, 64)} not found`);
    return b;
  };
  const bodyOf = async (req: Req): Promise<Record<string, unknown>> => {
    const body = await plainJson(req);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw plain(400, 'the body must be a JSON object');
    return body as Record<string, unknown>;
  };
  const includeArchived = (req: Req): boolean => {
    const v = req.query.get('includeArchived');
    if (v === null || v === '' || v === 'false') return false;
    if (v === 'true') return true;
    throw plain(400, 'includeArchived must be true or false');
  };
  const listOf = (req: Req) => {
    const user = req.user();
    const all = includeArchived(req);
    return [...state(store).budgets.values()]
      .filter((b) => b.userId === user.id && (all || !b.archived))
      .sort((a, b) => a.created - b.created);
  };
  const scaleOf = (b: BudgetRecord) => Math.max(2, b.amount.split('.')[1]?.length ?? 0);
  const periodJson = (b: BudgetRecord, p: BudgetPeriod, txs = budgetTransactions(store, b)) => ({
    start: p.start,
    end: p.end,
    spentAmount: denominated(atScale(spent(txs, p), scaleOf(b)), b.currencyCode),
  });

  const create = (kind: 'ONE_OFF' | 'RECURRING') => async (req: Req, res: import('../router.js').Reply) => {
    const user = req.user();
    const body = await bodyOf(req);
    const currency = userCurrency(store, user.id);
    const name = parseName(body.name);
    const amount = parseAmount(body.amount, currency);
    const filter = parseFilter(store, user.id, body.filter);
    const b: BudgetRecord = {
      id: store.ids.next(),
      userId: user.id,
      name,
      amount: toStr(amount),
      currencyCode: currency,
      periodicityType: kind,
      archived: false,
      filter,
      created: ctx.clock.now(),
    };
    if (kind === 'ONE_OFF') b.oneOffPeriodicity = parseOneOff(body.oneOffPeriodicity);
    else b.recurringPeriodicity = parseRecurring(body.recurringPeriodicity);
    state(store).budgets.set(b.id, b);
    res.json(200, { budgetSpecification: budgetJson(b) });
  };
  return { ctx, store, find, bodyOf, listOf, scaleOf, periodJson, create };
}

function createOneOff({ create }: BudgetsArea): Handler {
  return create('ONE_OFF');
}

function createRecurring({ create }: BudgetsArea): Handler {
  return create('RECURRING');
}

function listBudgets({ listOf }: BudgetsArea): Handler {
  return (req, res) => {
    res.json(200, { budgetSpecifications: listOf(req).map(budgetJson) });
  };
}

function summaries({ ctx, listOf, periodJson }: BudgetsArea): Handler {
  return (req, res) => {
    const now = ctx.clock.now();
    res.json(200, {
      budgetSummaries: listOf(req).map((b) => ({
        budgetSpecification: budgetJson(b),
        // the vendor reference's BudgetSummary: the current period under `budgetPeriod` (the
        // older Swagger named it budgetPeriods; the CLI reads both)
        budgetPeriod: periodJson(b, periodAt(b, now)),
      })),
    });
  };
}

function recommended({ ctx, store }: BudgetsArea): Handler {
  return (req, res) => {
    const user = req.user();
    // the vendor reference's ListRecommendedBudgetResponse
    res.json(200, { recommendedBudgets: recommend(store, user.id, user.locale, ctx.clock.now()) });
  };
}

function updateBudget({ store, find, bodyOf }: BudgetsArea): Handler {
  return async (req, res) => {
    const b = find(req);
    const body = await bodyOf(req);
    const name = parseName(body.name);
    const amount = parseAmount(body.amount, b.currencyCode);
    const filter = parseFilter(store, b.userId, body.filter);
    let oneOff = b.oneOffPeriodicity;
    let recurring = b.recurringPeriodicity;
    if (b.periodicityType === 'ONE_OFF') {
      if (body.recurringPeriodicity !== undefined && body.recurringPeriodicity !== null)
        throw plain(400, 'this is a ONE_OFF budget: give oneOffPeriodicity, not recurringPeriodicity');
      if (body.oneOffPeriodicity !== undefined && body.oneOffPeriodicity !== null)
        oneOff = parseOneOff(body.oneOffPeriodicity);
    } else {
      if (body.oneOffPeriodicity !== undefined && body.oneOffPeriodicity !== null)
        throw plain(400, 'this is a RECURRING budget: give recurringPeriodicity, not oneOffPeriodicity');
      if (body.recurringPeriodicity !== undefined && body.recurringPeriodicity !== null)
        recurring = parseRecurring(body.recurringPeriodicity);
    }
    Object.assign(b, {
      name,
      amount: toStr(amount),
      filter,
      oneOffPeriodicity: oneOff,
      recurringPeriodicity: recurring,
    });
    res.json(200, { budgetSpecification: budgetJson(b) });
  };
}

function deleteBudget({ store, find }: BudgetsArea): Handler {
  return (req, res) => {
    const b = find(req);
    state(store).budgets.delete(b.id);
    res.empty(204);
  };
}

function archiveBudget({ find }: BudgetsArea): Handler {
  return (req, res) => {
    const b = find(req);
    if (b.archived) throw plain(400, `budget ${b.id} is already archived`);
    b.archived = true;
    res.json(200, { budgetSpecification: budgetJson(b) });
  };
}

function budgetDetails({ ctx, store, find, scaleOf, periodJson }: BudgetsArea): Handler {
  return (req, res) => {
    const b = find(req);
    const now = ctx.clock.now();
    const q = (k: string) =>
      req.query.get(k) === null || req.query.get(k) === '' ? now : parseEpoch(req.query.get(k), k);
    const start = q('start');
    const end = q('end');
    if (start > end) throw plain(400, 'start is after end');
    const periods = periodsBetween(b, start, end, MAX_PERIODS);
    if (!periods) throw plain(400, `the range holds more than ${MAX_PERIODS} periods`);
    const txs = budgetTransactions(store, b);
    const list = periods.map((p) => periodJson(b, p, txs));
    let total: Dec = ZERO;
    for (const p of periods) total = add(total, spent(txs, p));
    const scale = scaleOf(b);
    total = atScale(total, scale);
    const average: Dec = { u: divHalfEven(total.u, BigInt(periods.length)), s: total.s };
    res.json(200, {
      budgetSpecification: budgetJson(b),
      budgetPeriods: list,
      start: periods[0]!.start,
      end: periods.at(-1)!.end,
      totalSpentAmount: denominated(total, b.currencyCode),
      averageSpentAmount: denominated(average, b.currencyCode),
    });
  };
}

function budgetTransactionsOf({ store, find }: BudgetsArea): Handler {
  return (req, res) => {
    const b = find(req);
    const raw = (k: string) => {
      const v = req.query.get(k);
      if (v === null || v === '') throw plain(400, `${k} is required (epoch milliseconds)`);
      return parseEpoch(v, k);
    };
    const start = raw('start');
    const end = raw('end');
    if (start > end) throw plain(400, 'start is after end');
    const p = { start, end };
    const out = budgetTransactions(store, b)
      .filter((t) => inPeriod(t, p))
      .map((t) => ({
        id: t.rec.id,
        amount: denominated(t.amount, t.rec.currencyCode),
        dispensableAmount: denominated(t.amount, t.rec.currencyCode),
        date: t.date,
        description: t.rec.description,
        categoryCode: txCategory(t)?.code ?? null,
        accountId: t.rec.accountId,
        // the vendor reference's BudgetTransaction has it (the older Swagger's does not)
        pending: t.rec.status === 'PENDING',
      }));
    res.json(200, { transactions: out });
  };
}

const ROUTES: Array<RouteRow<BudgetsArea>> = [
  [EP.budgets.createOneOff, createOneOff],
  [EP.budgets.createRecurring, createRecurring],
  [EP.budgets.list, listBudgets],
  [EP.budgets.summaries, summaries],
  [EP.budgets.recommended, recommended],
  [EP.budgets.update, updateBudget],
  [EP.budgets.delete, deleteBudget],
  [EP.budgets.archive, archiveBudget],
  [EP.budgets.details, budgetDetails],
  [EP.budgets.transactions, budgetTransactionsOf],
];

export function registerBudgets(ctx: SandboxContext): void {
  handleAll(ctx.handle, budgetsArea(ctx), ROUTES);
}

/**
 * Recommended budgets: for each expense primary category spent on in at least two of the last
 * three complete months, a monthly budget of the average, rounded up to a whole hundred.
 */
export function recommend(
  store: MemoryStore,
  userId: string,
  locale: string,
  now: number,
): Array<Record<string, unknown>> {
  const currency = userCurrency(store, userId);
  const current = bucketOf('MONTHLY', now);
  const months = bucketsBetween('MONTHLY', current.start - 80 * 86_400_000, current.start - 1).slice(-3);
  if (months.length === 0) return [];
  const perCat = new Map<string, { name: string; code: string; byMonth: Map<string, Dec> }>();
  for (const t of userTransactions(store, userId, 'pfm')) {
    if (t.rec.currencyCode !== currency || txType(t) !== 'EXPENSES') continue;
    const m = months.find((k) => t.date >= k.start && t.date < k.end);
    const cat = txCategory(t);
    if (!m || !cat) continue;
    const p = primaryOf(cat);
    const e = perCat.get(p.code) ?? { name: categoryName(p, locale), code: p.code, byMonth: new Map() };
    e.byMonth.set(m.label, add(e.byMonth.get(m.label) ?? ZERO, { u: -t.amount.u, s: t.amount.s }));
    perCat.set(p.code, e);
  }
  const out: Array<{ amount: Dec; rec: Record<string, unknown> }> = [];
  for (const e of perCat.values()) {
    if (e.byMonth.size < 2) continue;
    let total = ZERO;
    for (const v of e.byMonth.values()) total = add(total, v);
    const avg = { u: divHalfEven(total.u, BigInt(months.length)), s: total.s };
    const unit = 100n * 10n ** BigInt(avg.s);
    const rounded = ((avg.u + unit - 1n) / unit) * 100n; // whole units, rounded up to a hundred
    if (rounded <= 0n) continue;
    const amount: Dec = { u: rounded, s: 0 };
    out.push({
      amount,
      rec: {
        name: e.name,
        amount: denominated({ u: rounded * 100n, s: 2 }, currency),
        filter: { categories: [{ code: e.code }] },
        periodicityType: 'RECURRING',
        recurringPeriodicity: { periodUnit: 'MONTH' },
        averageSpentAmount: denominated(avg, currency),
        basedOnPeriods: months.map((m) => m.label),
      },
    });
  }
  return out.sort((a, b) => (a.amount.u < b.amount.u ? 1 : a.amount.u > b.amount.u ? -1 : 0)).map((x) => x.rec);
}
