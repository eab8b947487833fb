// Insights (spec 4.5, 3.2): active insights generated from the user's data, archived when the user
// acts on one (POST /insights/action) or by the deprecated PUT /insights/{id}/archive; 404 when the
// id is not an active insight. Error bodies are plain strings or empty.
import { EP } from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { plain } from '../http.js';
import type { MemoryStore, UserRecord } from '../store.js';
import { type Handler, type Req, type RouteRow, handleAll } from '../router.js';
import { plainJson } from './reports.js';
import { actionJson, generateInsights, INSIGHT_LOCALES, type InsightLocale } from '../finance/insights.js';

interface InsightRecord {
  id: string;
  key: string;
  userId: string;
  type: string;
  createdTime: number;
  /** Set when archived: what the user saw then. */
  archived?: {
    dateArchived: number;
    action: string;
    title: string;
    description: string;
    data: Record<string, unknown>;
  };
}

class InsightState {
  /** userId -> key -> record */
  insights = new Map<string, Map<string, InsightRecord>>();
  /** locale -> insight type -> title/description override ({title} and {description} stand for the built-in text). */
  overrides = new Map<string, Map<string, { title?: string; description?: string }>>();
}

/** Configures a title/description override for a locale and insight type (tests, PUT /sandbox/insights/overrides). */
export function setInsightOverride(
  store: MemoryStore,
  locale: string,
  type: string,
  o: { title?: string; description?: string },
): void {
  const all = state(store).overrides;
  if (!all.has(locale)) all.set(locale, new Map());
  all.get(locale)!.set(type, o);
}
const state = (store: MemoryStore) => store.area('insights', () => new InsightState());

/** What the insight handlers share: the user's active insights, and archiving one. */
interface InsightsArea {
  store: MemoryStore;
  /** The user's active insights now, each with its stable id. */
  active(req: Req): {
    user: UserRecord;
    list: Array<Record<string, unknown>>;
    records: Map<string, InsightRecord>;
    actions: Map<string, string[]>;
  };
  archive(req: Req, id: string, action: string | undefined): void;
}

function insightsArea(ctx: SandboxContext): InsightsArea {
  const { store } = ctx;
  store.onUserDeleted((userId) => state(store).insights.delete(userId));

  /** The user's active insights now, each with its stable id. */
  function active(req: Req) {
    const user = req.user();
    const overrides = state(store).overrides.get(user.locale);
    // a locale is configured when it has built-in texts or overrides; without either, nothing is shown
    const builtIn = INSIGHT_LOCALES.includes(user.locale as InsightLocale);
    if (!builtIn && !overrides?.size)
      return {
        user,
        list: [] as Array<Record<string, unknown>>,
        records: new Map<string, InsightRecord>(),
        actions: new Map<string, string[]>(),
      };
    const locale: InsightLocale = builtIn ? (user.locale as InsightLocale) : 'en_US';
    let mine = state(store).insights.get(user.id);
    if (!mine) state(store).insights.set(user.id, (mine = new Map()));
    const now = ctx.clock.now();
    const list: Array<Record<string, unknown>> = [];
    const actions = new Map<string, string[]>();
    for (const c of generateInsights(store, user.id, locale, now)) {
      const o = overrides?.get(c.type);
      // another locale shows only the types configured for it
      if (!builtIn && !o) continue;
      if (o?.title !== undefined)
        c.title = o.title.replaceAll('{title}', c.title).replaceAll('{description}', c.description);
      if (o?.description !== undefined)
        c.description = o.description.replaceAll('{title}', c.title).replaceAll('{description}', c.description);
      let r = mine.get(c.key);
      if (!r)
        mine.set(c.key, (r = { id: store.ids.next(), key: c.key, userId: user.id, type: c.type, createdTime: now }));
      if (r.archived) continue;
      actions.set(r.id, c.actions);
      list.push({
        id: r.id,
        userId: user.id,
        type: c.type,
        title: c.title,
        description: c.description,
        data: c.data,
        createdTime: r.createdTime,
        insightActions: c.actions.map((a) => actionJson(a, locale)),
      });
    }
    const byId = new Map([...mine.values()].map((r) => [r.id, r]));
    return { user, list, records: byId, actions };
  }

  function archive(req: Req, id: string, action: string | undefined): void {
    const { list, records, actions } = active(req);
    const item = list.find((i) => i.id === id);
    const rec = records.get(id);
    if (!item || !rec) throw plain(404, `${id.slice(0, 64)} is not an active insight`);
    if (action !== undefined && !actions.get(id)!.includes(action)) {
      throw plain(
        400,
        `insightAction ${action.slice(0, 40)} is not offered by this insight (offered: ${actions.get(id)!.join(', ')})`,
      );
    }
    rec.archived = {
      dateArchived: ctx.clock.now(),
      action: action ?? 'ARCHIVE',
      title: String(item.title),
      description: String(item.description),
      data: item.data as Record<string, unknown>,
    };
  }
  return { store, active, archive };
}

/** sandbox administration: title/description overrides per locale and insight type (connector token) */
function setOverride({ store }: InsightsArea): Handler {
  return async (req, res) => {
    const { locale, type } = req.params as { locale: string; type: string };
    if (!/^[a-z]{2}_[A-Z]{2}$/.test(locale)) throw plain(400, 'locale must look like en_US');
    if (!/^[A-Z_]{1,64}$/.test(type)) throw plain(400, 'type must be an insight type such as LARGE_EXPENSE');
    const body = await plainJson(req);
    const b = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    for (const k of ['title', 'description'])
      if (b[k] !== undefined && (typeof b[k] !== 'string' || (b[k] as string).length > 500))
        throw plain(400, `${k} must be a string of at most 500 characters`);
    if (b.title === undefined && b.description === undefined) throw plain(400, 'give title and/or description');
    setInsightOverride(store, locale, type, {
      title: b.title as string | undefined,
      description: b.description as string | undefined,
    });
    res.json(200, { locale, type, title: b.title ?? null, description: b.description ?? null });
  };
}

function listInsights({ active }: InsightsArea): Handler {
  return (req, res) => {
    res.json(200, active(req).list);
  };
}

function listArchived({ store }: InsightsArea): Handler {
  return (req, res) => {
    const user = req.user();
    const mine = [...(state(store).insights.get(user.id)?.values() ?? [])].filter((r) => r.archived);
    mine.sort((a, b) => a.archived!.dateArchived - b.archived!.dateArchived);
    res.json(
      200,
      mine.map((r) => ({
        id: r.id,
        userId: r.userId,
        // the vendor's current reference (ArchivedInsightDTO) names it insightType; the older
        // Swagger's ArchivedInsight, type: both are sent, so a client of either reads it
        insightType: r.type,
        type: r.type,
        title: r.archived!.title,
        description: r.archived!.description,
        data: r.archived!.data,
        dateInsightCreated: r.createdTime,
        dateArchived: r.archived!.dateArchived,
        insightAction: r.archived!.action,
      })),
    );
  };
}

function selectAction({ archive }: InsightsArea): Handler {
  return async (req, res) => {
    const body = await plainJson(req);
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw plain(400, 'the body must be a JSON object (SelectInsightActionRequest)');
    const b = body as Record<string, unknown>;
    if (typeof b.insightId !== 'string' || !b.insightId) throw plain(400, 'insightId is required');
    if (typeof b.insightAction !== 'string' || !b.insightAction) throw plain(400, 'insightAction is required');
    archive(req, b.insightId, b.insightAction);
    res.empty(204);
  };
}

function archiveInsight({ archive }: InsightsArea): Handler {
  return (req, res) => {
    archive(req, req.params.id!, undefined);
    res.empty(204);
  };
}

const ROUTES: Array<RouteRow<InsightsArea>> = [
  [EP.sandbox.insightOverride, setOverride],
  [EP.insights.list, listInsights],
  [EP.insights.archived, listArchived],
  [EP.insights.action, selectAction],
  [EP.insights.archive, archiveInsight],
];

export function registerInsights(ctx: SandboxContext): void {
  handleAll(ctx.handle, insightsArea(ctx), ROUTES);
}
