// POST /api/v1/statistics/query (spec 2.7): AND across properties, OR within one; each type only
// with its allowed resolutions (400 otherwise). Bodies of 400s are plain strings.
import { EP } from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { plain } from '../http.js';
import { plainJson } from './reports.js';
import { computeStatistics, STATISTIC_TYPES } from '../finance/statistics.js';
import { RESOLUTIONS, type Resolution } from '../finance/dates.js';

/** The Swagger's default types when none are given. */
export const DEFAULT_TYPES = ['expenses-by-category', 'income-by-category', 'left-to-spend', 'left-to-spend-average'];

const stringList = (v: unknown, name: string): string[] | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw plain(400, `${name} must be a string or an array of strings`);
  if (v.length > 1000) throw plain(400, `${name} may hold at most 1000 values`);
  return v as string[];
};

export function registerStatistics(ctx: SandboxContext): void {
  ctx.handle(EP.statistics.query, async (req, res) => {
    const user = req.user();
    const body = await plainJson(req);
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw plain(400, 'the body must be a JSON object (StatisticQuery)');
    const b = body as Record<string, unknown>;
    const types = stringList(b.types, 'types') ?? DEFAULT_TYPES;
    if (types.length === 0) throw plain(400, 'types must name at least one statistics type');
    for (const t of types)
      if (!Object.hasOwn(STATISTIC_TYPES, t))
        throw plain(
          400,
          `unknown statistics type "${t.slice(0, 60)}" (known: ${Object.keys(STATISTIC_TYPES).join(', ')})`,
        );
    if (typeof b.resolution !== 'string') throw plain(400, `resolution is required: one of ${RESOLUTIONS.join(', ')}`);
    const resolution = b.resolution as Resolution;
    if (!RESOLUTIONS.includes(resolution))
      throw plain(400, `unknown resolution "${b.resolution.slice(0, 40)}" (one of ${RESOLUTIONS.join(', ')})`);
    for (const t of types) {
      const allowed = STATISTIC_TYPES[t]!;
      if (!allowed.includes(resolution))
        throw plain(400, `resolution ${resolution} is not available for ${t} (available: ${allowed.join(', ')})`);
    }
    const descriptions = stringList(b.description, 'description');
    const periods = stringList(b.periods, 'periods');
    for (const p of periods ?? []) {
      if (!/^\d{4}(-\d{2}(-\d{2})?|:\d{2})?$/.test(p))
        throw plain(400, `period "${p.slice(0, 40)}" must be YYYY, YYYY-MM, YYYY:WW or YYYY-MM-DD`);
    }
    if (
      b.padResultUntilToday !== undefined &&
      b.padResultUntilToday !== null &&
      typeof b.padResultUntilToday !== 'boolean'
    )
      throw plain(400, 'padResultUntilToday must be a boolean');
    const result = computeStatistics(
      ctx.store,
      user.id,
      { types, resolution, descriptions, periods, padResultUntilToday: b.padResultUntilToday === true },
      ctx.clock.now(),
    );
    res.json(200, result);
  });
}
