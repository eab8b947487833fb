// --fields: the dotted paths a user picks, for every format. Table and csv show them as columns;
// json and ndjson keep only them, in that order. An unknown path is a usage error listing the
// paths the rows have and those the endpoint declares; `--fields` alone (or `--fields help`) lists them.
import { UsageError } from '../errors.js';
import { ExactNumber } from '../contract/exact-json.js';

/** What --fields asks for: nothing, the list of paths, or these paths. */
export type FieldsRequest = { kind: 'none' } | { kind: 'list' } | { kind: 'paths'; paths: string[] };

export function fieldsRequest(raw: string | boolean | undefined): FieldsRequest {
  if (raw === undefined || raw === false) return { kind: 'none' };
  if (raw === true) return { kind: 'list' };
  const t = raw.trim();
  if (t === 'help' || t === '?') return { kind: 'list' };
  const paths = t
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  // an empty value (`--fields "$COLS"` with COLS unset) is a mistake, not a request for the list:
  // the list on stdout with exit 0 would pass for data
  if (paths.length === 0)
    throw new UsageError('--fields is empty', { hint: 'give comma-separated paths, or --fields help to list them' });
  return { kind: 'paths', paths };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof ExactNumber);
}

/** Every dotted path the items have (objects and their leaves; arrays are leaves), in first-seen order. */
export function availablePaths(items: unknown[], max = 50): string[] {
  const seen = new Set<string>();
  const walk = (v: unknown, prefix: string, depth: number) => {
    if (!isPlainObject(v) || depth > 6) return;
    for (const [k, x] of Object.entries(v)) {
      const p = prefix ? `${prefix}.${k}` : k;
      seen.add(p);
      walk(x, p, depth + 1);
    }
  };
  for (const it of items.slice(0, max)) walk(it, '', 0);
  return [...seen];
}

function has(item: unknown, path: string): boolean {
  let cur: unknown = item;
  for (const part of path.split('.')) {
    if (!isPlainObject(cur) || !Object.prototype.hasOwnProperty.call(cur, part)) return false;
    cur = cur[part];
  }
  return true;
}

/** These dotted paths with their parents ("a.b.c" also gives "a" and "a.b"), each once, in order. */
function withParents(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    const parts = p.split('.');
    for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join('.'));
  }
  return [...out];
}

/** The paths --fields knows: those the first items have, then the declared ones with their parents. */
export function knownPaths(items: unknown[], declared: readonly string[] = []): string[] {
  return [...new Set([...availablePaths(items), ...withParents(declared)])];
}

/**
 * A usage error (exit 2) for paths that none of the first items have and that are not among the
 * `declared` ones (what the endpoint's items may carry, contract/item-fields.ts), listing both.
 * With no items, only a declared list can tell a typo, so without one nothing is checked.
 */
export function checkPaths(paths: string[], items: unknown[], declared: readonly string[] = []): void {
  if (items.length === 0 && declared.length === 0) return;
  const sample = items.slice(0, 50);
  const known = new Set(withParents(declared));
  const unknown = paths.filter((p) => !known.has(p) && !sample.some((it) => has(it, p)));
  if (unknown.length === 0) return;
  const avail = knownPaths(sample, declared);
  throw new UsageError(
    `--fields: unknown ${unknown.length === 1 ? 'path' : 'paths'} ${unknown.map((p) => `"${p}"`).join(', ')}`,
    { hint: `available: ${avail.join(', ')}` },
  );
}

/** The item with only these paths, in this order (a nested path keeps its parents). */
export function project(item: unknown, paths: string[]): unknown {
  if (!isPlainObject(item)) return item;
  const out: Record<string, unknown> = {};
  for (const p of paths) {
    const parts = p.split('.');
    let src: unknown = item;
    let ok = true;
    for (const part of parts) {
      if (!isPlainObject(src) || !Object.prototype.hasOwnProperty.call(src, part)) {
        ok = false;
        break;
      }
      src = src[part];
    }
    if (!ok) continue;
    let dst = out;
    for (const part of parts.slice(0, -1)) {
      if (!isPlainObject(dst[part])) dst[part] = {};
      dst = dst[part] as Record<string, unknown>;
    }
    dst[parts[parts.length - 1]!] = src;
  }
  return out;
}
