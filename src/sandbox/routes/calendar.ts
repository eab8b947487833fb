// GET /api/v1/calendar/periods and /api/v1/calendar/periods/{period} (spec 4.3): monthly periods,
// MONTHLY_ADJUSTED by default (salary day 25, moved to the preceding Swedish business day).
// Error bodies are strings, as the spec says.
import { EP } from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { plain } from '../http.js';
import { adjustedMonth, bucketOf, bucketsBetween, parseIsoDate, type Bucket } from '../finance/dates.js';

type MonthlyResolution = 'MONTHLY' | 'MONTHLY_ADJUSTED';

export interface PeriodJson {
  name: string;
  resolution: MonthlyResolution;
  startDate: number;
  endDate: number;
}

/** The Swagger's Period: endDate is the last second of the period (its example: 23:59:59 UTC). */
export function periodJson(b: Bucket, resolution: MonthlyResolution): PeriodJson {
  return { name: b.label, resolution, startDate: b.start, endDate: b.end - 1000 };
}

function resolutionOf(q: URLSearchParams): MonthlyResolution {
  const r = q.get('resolution');
  if (r === null || r === '') return 'MONTHLY_ADJUSTED';
  if (r === 'MONTHLY' || r === 'MONTHLY_ADJUSTED') return r;
  throw plain(400, `resolution must be MONTHLY or MONTHLY_ADJUSTED, got "${r.slice(0, 40)}"`);
}

function dateParam(q: URLSearchParams, name: string): number {
  const v = q.get(name);
  if (v === null || v === '') throw plain(400, `${name} is required (YYYY-MM-DD)`);
  const ms = parseIsoDate(v);
  if (ms === undefined) throw plain(400, `${name} must be a date in the format YYYY-MM-DD, got "${v.slice(0, 40)}"`);
  return ms;
}

export function registerCalendar(ctx: SandboxContext): void {
  ctx.handle(EP.calendar.periods, (req, res) => {
    const res0 = resolutionOf(req.query);
    const gte = dateParam(req.query, 'period_gte');
    const lte = dateParam(req.query, 'period_lte');
    if (gte > lte) throw plain(400, 'period_gte is after period_lte');
    const from = new Date(gte);
    const limit = Date.UTC(from.getUTCFullYear() + 10, from.getUTCMonth(), from.getUTCDate());
    // 29 February plus ten years lands on 1 March, which is still within ten years
    if (lte > limit)
      throw plain(400, 'the range is out of bounds: period_gte and period_lte may be at most 10 years apart');
    const buckets = bucketsBetween(res0, gte, lte);
    res.json(
      200,
      buckets.map((b) => periodJson(b, res0)),
    );
  });

  ctx.handle(EP.calendar.period, (req, res) => {
    const res0 = resolutionOf(req.query);
    const p = req.params.period!;
    let buckets: Bucket[];
    if (/^\d{4}$/.test(p)) {
      const y = Number(p);
      buckets = Array.from({ length: 12 }, (_, i) =>
        res0 === 'MONTHLY' ? bucketOf('MONTHLY', Date.UTC(y, i, 1)) : adjustedMonth(y, i + 1),
      );
    } else if (/^\d{4}-\d{2}$/.test(p)) {
      const [y, m] = p.split('-').map(Number) as [number, number];
      if (y < 1000 || m < 1 || m > 12) throw plain(400, `invalid period "${p}": the month must be 01-12`);
      buckets = [res0 === 'MONTHLY' ? bucketOf('MONTHLY', Date.UTC(y, m - 1, 1)) : adjustedMonth(y, m)];
    } else if (/^\d{4}-\d{2}-\d{2}$/.test(p)) {
      const ms = parseIsoDate(p);
      if (ms === undefined) throw plain(400, `invalid period "${p}": not a calendar date`);
      buckets = [bucketOf(res0, ms)];
    } else {
      throw plain(400, `invalid period format "${p.slice(0, 40)}": use YYYY, YYYY-MM or YYYY-MM-DD`);
    }
    if (buckets.some((b) => new Date(b.start).getUTCFullYear() < 1000))
      throw plain(400, `invalid period "${p}": year out of range`);
    res.json(
      200,
      buckets.map((b) => periodJson(b, res0)),
    );
  });
}
