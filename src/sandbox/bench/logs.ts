// GET /sandbox/logs: the request log, filtered: status (a class 1xx to 5xx, or a code), method, path
// (a glob), user, since (a duration back from the sandbox clock), after (a seq, for --follow), limit.
import { parseDuration } from '../../contract/duration.js';
import type { SandboxContext } from '../context.js';
import { badRequest } from '../http.js';
import type { Handler } from '../router.js';
import { globRegex, type LogEntry } from './request-log.js';

function statusTest(s: string): (n: number) => boolean {
  const m = /^([1-5])xx$/i.exec(s);
  if (m) return (n) => Math.floor(n / 100) === Number(m[1]);
  if (/^[1-5]\d\d$/.test(s)) return (n) => n === Number(s);
  throw badRequest('status must be a class 1xx to 5xx (e.g. 4xx) or a status code such as 404', { field: 'status' });
}

function intParam(v: string | null, field: string, max: number): number | undefined {
  if (v === null || v === '') return undefined;
  if (!/^\d{1,12}$/.test(v) || Number(v) > max)
    throw badRequest(`${field} must be a whole number up to ${max}`, { field });
  return Number(v);
}

export function logs(ctx: SandboxContext): Handler {
  return (req, res) => {
    const q = req.query;
    const tests: Array<(e: LogEntry) => boolean> = [];
    const status = q.get('status');
    if (status) {
      const t = statusTest(status);
      tests.push((e) => t(e.status));
    }
    const method = q.get('method');
    if (method) {
      if (!/^[A-Za-z]{1,10}$/.test(method))
        throw badRequest('method must be an HTTP method such as GET', { field: 'method' });
      const m = method.toUpperCase();
      tests.push((e) => e.method === m);
    }
    const path = q.get('path');
    if (path) {
      if (path.length > 500) throw badRequest('path must be at most 500 characters', { field: 'path' });
      const re = globRegex(path);
      tests.push((e) => re.test(e.path));
    }
    const user = q.get('user');
    if (user) {
      const id = ctx.store.userByExternalId(user)?.id ?? user;
      tests.push((e) => e.userId === id);
    }
    const since = q.get('since');
    if (since) {
      const ms = parseDuration(since);
      if (ms === undefined) throw badRequest('since must be a duration such as 90s, 5m, 2h or 1d', { field: 'since' });
      const from = ctx.clock.now() - ms;
      tests.push((e) => e.time >= from);
    }
    const after = intParam(q.get('after'), 'after', Number.MAX_SAFE_INTEGER) ?? 0;
    const limit = intParam(q.get('limit'), 'limit', 10_000) ?? 1000;
    const all = ctx.bench!.requests.entries(after);
    const matching = all.entries.filter((e) => tests.every((t) => t(e)));
    // the newest `limit` of them; `last` lets a follower ask for what came after
    res.json(200, { entries: matching.slice(-limit), last: all.last, dropped: all.dropped });
  };
}
