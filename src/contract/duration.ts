// Durations as people type them (`90s`, `5m`, `2h`, `1d`, `1h30m`, `250ms`), shared by the CLI and the
// sandbox (`sandbox clock advance`, `sandbox logs --since`).

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Milliseconds of a duration like `1h30m`, `90s`, `2d`; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (!/^(\d{1,9}(ms|s|m|h|d|w))+$/.test(t)) return undefined;
  let total = 0;
  for (const m of t.matchAll(/(\d+)(ms|s|m|h|d|w)/g)) total += Number(m[1]) * UNITS[m[2]!]!;
  return Number.isSafeInteger(total) ? total : undefined;
}

/** A time as people type it: an ISO 8601 date or date-time (UTC unless it says otherwise), or epoch ms. */
export function parseTime(text: string): number | undefined {
  const t = text.trim();
  if (/^\d{10,15}$/.test(t)) return Number(t);
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(t)) return undefined;
  const iso = /[T ]/.test(t) && !/(Z|[+-]\d{2}:?\d{2})$/.test(t) ? `${t.replace(' ', 'T')}Z` : t.replace(' ', 'T');
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return undefined;
  // 2026-02-30 parses to March 2nd: refuse a date that is not the one written
  if (new Date(ms).toISOString().slice(0, 10) !== t.slice(0, 10) && !/[+-]\d{2}:?\d{2}$/.test(t)) return undefined;
  return ms;
}
